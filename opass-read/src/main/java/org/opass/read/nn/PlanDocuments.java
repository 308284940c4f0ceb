package org.opass.read.nn;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.opass.read.wire.PlanWire;

/**
 * The JSON documents {@link ReadPlanService} answers with (UTF-8, the fields of
 * {@link PlanWire}): the answer to a submitted plan ({@link #planned}) and the list of live
 * plans ({@link #listed}). Split out of the service so that the wire format sits apart from
 * planning. Stateless and thread-safe.
 */
final class PlanDocuments {
  private static final JsonFactory JSON = new JsonFactory();

  private PlanDocuments() {
  }

  /**
   * The answer to a submission: the plan's id, which DataNode serves each chunk read, the
   * resulting loads, and the maximum load of both Algorithm 2 and the optimum on the same batch.
   *
   * @param owner   the caller, whose plan it is
   * @param haState the NameNode's HA state ({@link ReadPlanService#haState})
   */
  static byte[] planned(String owner, String haState, PlanOutcome outcome) throws IOException {
    List<BlockRead> chunks = outcome.chunks();
    ReadPlanTable.PlanInfo info = outcome.info;
    int local = 0;
    String[] names = new String[chunks.size()];
    Map<String, Integer> served = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) {
      BlockRead c = chunks.get(i);
      names[i] = c.block.nameOf(outcome.servers[i]);
      served.merge(names[i], 1, Integer::sum);
      local += c.local != null ? 1 : 0;
    }
    long pinned = outcome.pinned;
    ByteArrayOutputStream out = new ByteArrayOutputStream(256 + 120 * chunks.size());
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      if (info == null) {
        g.writeNullField(PlanWire.ID); // every chunk was skipped: nothing to keep
      } else {
        g.writeStringField(PlanWire.ID, info.id());
      }
      g.writeStringField(PlanWire.OWNER, owner);
      g.writeStringField(PlanWire.HA_STATE, haState);
      g.writeNumberField(PlanWire.EXPIRES_IN_MS,
          info == null ? 0 : info.expiresMillis() - info.createdMillis());
      g.writeStringField(PlanWire.STRATEGY,
          outcome.chosen.strategy().name().toLowerCase(Locale.ROOT));
      g.writeNumberField(PlanWire.READS, chunks.size());
      g.writeNumberField(PlanWire.LOCAL, local);
      g.writeNumberField(PlanWire.SKIPPED, outcome.resolved.skipped);
      g.writeNumberField(PlanWire.MAX_LOAD, Math.max(pinned, outcome.chosen.maxLoad()));
      g.writeNumberField(PlanWire.ALGORITHM2_MAX_LOAD,
          Math.max(pinned, outcome.both.algorithm2().maxLoad()));
      g.writeNumberField(PlanWire.OPTIMAL_MAX_LOAD,
          Math.max(pinned, outcome.both.optimal().maxLoad()));
      g.writeObjectFieldStart(PlanWire.SERVED_BY_DATANODE);
      for (Map.Entry<String, Integer> e : served.entrySet()) {
        g.writeNumberField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeArrayFieldStart(PlanWire.ASSIGNMENTS);
      for (int i = 0; i < names.length; i++) {
        BlockRead c = chunks.get(i);
        g.writeStartObject();
        g.writeStringField(PlanWire.PATH_FIELD, c.file.path);
        g.writeNumberField(PlanWire.OFFSET, c.block.start);
        g.writeNumberField(PlanWire.LENGTH, c.block.size);
        g.writeStringField(PlanWire.READER, c.reader);
        g.writeStringField(PlanWire.DATANODE, names[i]);
        g.writeBooleanField(PlanWire.LOCAL, c.local != null);
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  /**
   * The live plans shown to a caller.
   *
   * @param all     whether {@code shown} is every plan (the superuser's view) or the caller's
   * @param haState the NameNode's HA state ({@link ReadPlanService#haState})
   * @param now     the table's clock (monotonic milliseconds), for the plans' remaining time
   */
  static byte[] listed(boolean all, String haState, List<ReadPlanTable.PlanInfo> shown,
      long now) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField(PlanWire.SCOPE, all ? "all" : "own");
      g.writeStringField(PlanWire.HA_STATE, haState);
      g.writeArrayFieldStart(PlanWire.PLANS);
      long reads = 0;
      for (ReadPlanTable.PlanInfo p : shown) {
        g.writeStartObject();
        g.writeStringField(PlanWire.ID, p.id());
        g.writeStringField(PlanWire.OWNER, p.owner());
        g.writeNumberField(PlanWire.READS, p.reads());
        g.writeNumberField(PlanWire.SERVED, p.served());
        g.writeNumberField(PlanWire.EXPIRES_IN_MS, Math.max(0, p.expiresMillis() - now));
        g.writeEndObject();
        reads += p.reads();
      }
      g.writeEndArray();
      g.writeNumberField(PlanWire.PLANNED_READS, reads);
      g.writeEndObject();
    }
    return out.toByteArray();
  }
}
