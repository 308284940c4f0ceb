package org.opass.mrap.copy;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * CRC32C arithmetic: the CRC of two byte runs joined, from the CRCs of each. HDFS's composite
 * file checksums are CRC32C composed the same way; Hadoop's own {@code CrcUtil} is private API
 * whose {@code compose} changed signature in 3.5, so the copy keeps its few lines here.
 *
 * <p>Polynomials are in the reflected bit order CRC32C uses: bit 31 is x^0, bit 0 is x^31.
 * Composition is linear: the CRC of runs R1..Rn laid end to end is the XOR of each run's CRC
 * shifted by the bytes that follow it ({@link #shift}), so runs may be added in any order if
 * each knows how many bytes follow it ({@link Accumulator}).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class Crc32c {
  private static final int POLYNOMIAL = 0x82f63b78; // Castagnoli, reflected
  private static final int ONE = 0x80000000; // x^0
  /** x^(8 * 2^k) mod the polynomial, k = 0..63: a shift by any length is a few products. */
  private static final int[] POWERS = new int[64];

  static {
    POWERS[0] = 1 << 23; // x^8: one byte
    for (int k = 1; k < 64; k++) {
      POWERS[k] = multiply(POWERS[k - 1], POWERS[k - 1]);
    }
  }

  private Crc32c() {
  }

  /**
   * The CRC32C of A followed by B, given A's CRC, B's CRC and B's length in bytes:
   * crc(A) · x^(8·|B|) + crc(B) over GF(2) modulo the polynomial (the all-ones initial and
   * final values cancel in this form).
   */
  public static int compose(int crcA, int crcB, long lengthB) {
    return shift(crcA, lengthB) ^ crcB;
  }

  /** {@code crc} · x^(8·bytes): a run's part of the CRC of a longer run it starts. */
  public static int shift(int crc, long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("negative length " + bytes);
    }
    int result = crc;
    for (int k = 0; bytes != 0; k++, bytes >>>= 1) {
      if ((bytes & 1) != 0) {
        result = multiply(result, POWERS[k]);
      }
    }
    return result;
  }

  /** p · q mod the polynomial, in the reflected order. */
  private static int multiply(int p, int q) {
    int sum = 0;
    int px = p;
    for (int term = ONE; term != 0; term >>>= 1) {
      if ((q & term) != 0) {
        sum ^= px;
      }
      boolean top = (px & 1) != 0;
      px >>>= 1;
      if (top) {
        px ^= POLYNOMIAL;
      }
    }
    return sum;
  }

  /**
   * The CRC32C of a file of {@code length} bytes from the CRCs of its runs, added in any order
   * with where each ends; a constant amount of memory however many runs. Runs added in
   * ascending order cost one product each (fewer where the distance between ends repeats).
   */
  public static final class Accumulator {
    private final long length;
    private int total; // runs before the current stream, each shifted to the file's end
    private int acc; // the current stream, shifted to its last end
    private long last = -1;
    private long lastDistance = -1;
    private int lastPower;

    public Accumulator(long length) {
      this.length = length;
    }

    /** Adds a run with CRC {@code crc} ending at byte {@code end} of the file. */
    public void add(int crc, long end) {
      if (end > length) {
        throw new IllegalArgumentException("a run ending at " + end + " of " + length + " bytes");
      }
      if (end < last) { // not ascending: close the stream so far
        total ^= shift(acc, length - last);
        acc = 0;
        last = -1;
      }
      if (last >= 0) {
        long d = end - last;
        if (d != lastDistance) {
          lastDistance = d;
          lastPower = shift(ONE, d);
        }
        acc = multiply(acc, lastPower);
      }
      acc ^= crc;
      last = end;
    }

    /** The CRC32C of the file if every run has been added. */
    public int value() {
      return last < 0 ? total : total ^ shift(acc, length - last);
    }

    /** Adds the {@link #value()} of runs accumulated elsewhere (another task's). */
    public void addValue(int value) {
      total ^= value;
    }
  }
}
