package org.opass.read.plan;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * Writes a {@link Plan} as JSON by hand, so that the library needs no JSON dependency on
 * clients that only have this jar. Keys are snake_case, as in everything we print or serve.
 *
 * <pre>
 * {"summary": {"chunks": 3, "processes": 2, "min_share": 1, "max_share": 2,
 *              "total_bytes": 1200, "local": {"chunks": 2, "bytes": 800},
 *              "rack_local": {...}, "remote": {...}, "local_optimum": 2},
 *  "processes": [{"index": 0, "id": 0, "host": "dn1", "chunks": [
 *      {"index": 0, "id": 0, "path": "/a", "offset": 0, "length": 400,
 *       "hosts": ["dn1", "dn2"], "locality": "local"}, ...]}, ...]}
 * </pre>
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class PlanJson {
  private PlanJson() {
  }

  public static String toJson(Plan plan) {
    StringBuilder sb = new StringBuilder(256 + 160 * plan.chunks().size());
    sb.append("{\"summary\":{");
    field(sb, "chunks", plan.chunks().size()).append(',');
    field(sb, "processes", plan.processes().size()).append(',');
    field(sb, "min_share", plan.minShare()).append(',');
    field(sb, "max_share", plan.maxShare()).append(',');
    field(sb, "total_bytes", plan.totalBytes()).append(',');
    for (Locality l : Locality.values()) {
      string(sb, key(l)).append(":{");
      field(sb, "chunks", plan.chunkCount(l)).append(',');
      field(sb, "bytes", plan.bytes(l)).append("},");
    }
    field(sb, "local_optimum", plan.localOptimum());
    sb.append("},\"processes\":[");
    for (int p = 0; p < plan.processes().size(); p++) {
      Proc proc = plan.processes().get(p);
      sb.append(p == 0 ? "{" : ",{");
      field(sb, "index", p).append(',');
      field(sb, "id", proc.id()).append(',');
      string(sb, "host").append(':');
      string(sb, proc.host()).append(",\"chunks\":[");
      int[] idx = plan.chunkIndicesOf(p);
      for (int i = 0; i < idx.length; i++) {
        Chunk c = plan.chunks().get(idx[i]);
        sb.append(i == 0 ? "{" : ",{");
        field(sb, "index", idx[i]).append(',');
        field(sb, "id", c.id()).append(',');
        string(sb, "path").append(':');
        string(sb, c.path()).append(',');
        field(sb, "offset", c.offset()).append(',');
        field(sb, "length", c.length()).append(",\"hosts\":[");
        for (int h = 0; h < c.hosts().size(); h++) {
          if (h > 0) {
            sb.append(',');
          }
          string(sb, c.hosts().get(h));
        }
        sb.append("],\"locality\":");
        string(sb, plan.localityOf(idx[i]).label()).append('}');
      }
      sb.append("]}");
    }
    return sb.append("]}").toString();
  }

  private static String key(Locality l) {
    return l == Locality.RACK_LOCAL ? "rack_local" : l.label();
  }

  private static StringBuilder field(StringBuilder sb, String name, long value) {
    return string(sb, name).append(':').append(value);
  }

  /** Appends {@code s} as a JSON string literal (RFC 8259 escapes). */
  static StringBuilder string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\t':
          sb.append("\\t");
          break;
        default:
          if (ch < 0x20) {
            sb.append(String.format("\\u%04x", (int) ch));
          } else {
            sb.append(ch);
          }
      }
    }
    return sb.append('"');
  }
}
