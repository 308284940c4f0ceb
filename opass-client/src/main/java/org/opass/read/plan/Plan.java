package org.opass.read.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * The result of {@link EqualAssignment}: every chunk assigned to exactly one process, with the
 * locality of each read. Immutable. Chunks and processes are addressed by their index in
 * {@link #chunks()} and {@link #processes()}, not by id.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class Plan {
  private final List<Chunk> chunks;
  private final List<Proc> processes;
  private final int[] owner;
  private final Locality[] locality;
  private final int[][] byProcess;
  private final int[] count = new int[Locality.values().length];
  private final long[] bytes = new long[Locality.values().length];
  private final int localOptimum;

  Plan(List<Chunk> chunks, List<Proc> processes, int[] owner, RackResolver racks,
      int localOptimum) {
    this.chunks = List.copyOf(chunks);
    this.processes = List.copyOf(processes);
    this.owner = owner.clone();
    this.localOptimum = localOptimum;
    Objects.requireNonNull(racks, "racks");
    int n = chunks.size();
    int m = processes.size();
    locality = new Locality[n];
    int[] sizes = new int[m];
    for (int c = 0; c < n; c++) {
      int p = owner[c];
      if (p < 0 || p >= m) {
        throw new IllegalArgumentException("chunk " + c + " is assigned to process index " + p
            + ", expected [0, " + m + ")");
      }
      Locality l = classify(chunks.get(c), processes.get(p).host(), racks);
      locality[c] = l;
      count[l.ordinal()]++;
      bytes[l.ordinal()] += chunks.get(c).length();
      sizes[p]++;
    }
    byProcess = new int[m][];
    for (int p = 0; p < m; p++) {
      byProcess[p] = new int[sizes[p]];
      sizes[p] = 0;
    }
    for (int c = 0; c < n; c++) {
      byProcess[owner[c]][sizes[owner[c]]++] = c;
    }
  }

  /** Locality of reading {@code chunk} from a process on {@code host}. */
  public static Locality classify(Chunk chunk, String host, RackResolver racks) {
    if (chunk.isOn(host)) {
      return Locality.LOCAL;
    }
    String rack = racks.rackOf(host);
    if (rack != null) {
      for (String h : chunk.hosts()) {
        if (rack.equals(racks.rackOf(h))) {
          return Locality.RACK_LOCAL;
        }
      }
    }
    return Locality.REMOTE;
  }

  public List<Chunk> chunks() {
    return chunks;
  }

  public List<Proc> processes() {
    return processes;
  }

  /** Index (into {@link #processes()}) of the process that reads chunk {@code chunkIndex}. */
  public int processOf(int chunkIndex) {
    return owner[Objects.checkIndex(chunkIndex, owner.length)];
  }

  public Locality localityOf(int chunkIndex) {
    return locality[Objects.checkIndex(chunkIndex, locality.length)];
  }

  /** Chunk indices assigned to process {@code processIndex}, ascending. */
  public int[] chunkIndicesOf(int processIndex) {
    return byProcess[Objects.checkIndex(processIndex, byProcess.length)].clone();
  }

  /** Chunks assigned to process {@code processIndex}, in chunk order. */
  public List<Chunk> chunksOf(int processIndex) {
    int[] idx = byProcess[Objects.checkIndex(processIndex, byProcess.length)];
    List<Chunk> out = new ArrayList<>(idx.length);
    for (int c : idx) {
      out.add(chunks.get(c));
    }
    return Collections.unmodifiableList(out);
  }

  public int chunkCount(Locality l) {
    return count[l.ordinal()];
  }

  public long bytes(Locality l) {
    return bytes[l.ordinal()];
  }

  public int localChunks() {
    return chunkCount(Locality.LOCAL);
  }

  public long localBytes() {
    return bytes(Locality.LOCAL);
  }

  public int rackLocalChunks() {
    return chunkCount(Locality.RACK_LOCAL);
  }

  public long rackLocalBytes() {
    return bytes(Locality.RACK_LOCAL);
  }

  public int remoteChunks() {
    return chunkCount(Locality.REMOTE);
  }

  public long remoteBytes() {
    return bytes(Locality.REMOTE);
  }

  public long totalBytes() {
    return bytes[0] + bytes[1] + bytes[2];
  }

  /**
   * The max-flow optimum of local chunks under the plan's quotas; {@link #localChunks()} equals
   * it (kept separately so that a test or a log can check that).
   */
  public int localOptimum() {
    return localOptimum;
  }

  /** Smallest number of chunks any process got (&lfloor;n/m&rfloor;). */
  public int minShare() {
    int min = Integer.MAX_VALUE;
    for (int[] b : byProcess) {
      min = Math.min(min, b.length);
    }
    return byProcess.length == 0 ? 0 : min;
  }

  /** Largest number of chunks any process got (&lceil;n/m&rceil;). */
  public int maxShare() {
    int max = 0;
    for (int[] b : byProcess) {
      max = Math.max(max, b.length);
    }
    return max;
  }

  /** The plan as one JSON object; see {@link PlanJson}. */
  public String toJson() {
    return PlanJson.toJson(this);
  }

  @Override
  public String toString() {
    return "Plan[" + chunks.size() + " chunks, " + processes.size() + " processes, local "
        + localChunks() + ", rack-local " + rackLocalChunks() + ", remote " + remoteChunks() + "]";
  }
}
