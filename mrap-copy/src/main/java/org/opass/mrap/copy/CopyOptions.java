package org.opass.mrap.copy;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.mrap.pattern.PatternConfig;

/** What a copy does besides copying; immutable, built with {@link #builder()}. */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class CopyOptions {
  private final PatternConfig pattern;
  private final long taskBytes;
  private final boolean verify;
  private final boolean overwrite;
  private final Mode mode;

  /** How the bytes are written. */
  public enum Mode {
    /**
     * Parallel for a large copy between cluster file systems into HDFS; else from this
     * process, in {@code mrap.copy.threads} streams joined by concat into HDFS.
     */
    AUTO,
    /** One stream from this process. */
    SINGLE,
    /** A MapReduce job of chunk writers, the parts joined by HDFS's concat. */
    PARALLEL
  }

  private CopyOptions(Builder b) {
    this.pattern = b.pattern;
    this.taskBytes = b.taskBytes;
    this.verify = b.verify;
    this.overwrite = b.overwrite;
    this.mode = b.mode;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** These options with another pattern (a variable's slab, planned for each source). */
  public CopyOptions withPattern(PatternConfig p) {
    Builder b = toBuilder();
    b.pattern(p);
    return new CopyOptions(b);
  }

  private Builder toBuilder() {
    Builder b = new Builder();
    b.pattern = pattern;
    b.taskBytes = taskBytes;
    b.verify = verify;
    b.overwrite = overwrite;
    b.mode = mode;
    return b;
  }

  /** The pattern to restructure for, or null for a plain copy. */
  public PatternConfig pattern() {
    return pattern;
  }

  /** Bytes of interest one map task reads; 0 for the destination's block size. */
  public long taskBytes() {
    return taskBytes;
  }

  public boolean verify() {
    return verify;
  }

  public boolean overwrite() {
    return overwrite;
  }

  public Mode mode() {
    return mode;
  }

  /** Builder: a plain, verified copy that refuses an existing destination by default. */
  public static final class Builder {
    private PatternConfig pattern;
    private long taskBytes;
    private boolean verify = true;
    private boolean overwrite;
    private Mode mode = Mode.AUTO;

    private Builder() {
    }

    /** Restructure for this pattern: its regions packed per task, or its tiles tile by tile. */
    public Builder pattern(PatternConfig p) {
      pattern = p;
      return this;
    }

    public Builder taskBytes(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("task bytes must be >= 0, got " + bytes);
      }
      taskBytes = bytes;
      return this;
    }

    public Builder verify(boolean v) {
      verify = v;
      return this;
    }

    public Builder overwrite(boolean o) {
      overwrite = o;
      return this;
    }

    public Builder mode(Mode m) {
      mode = java.util.Objects.requireNonNull(m, "mode");
      return this;
    }

    public CopyOptions build() {
      return new CopyOptions(this);
    }
  }
}
