package org.opass.mrap.copy;

/**
 * CRC32C arithmetic: the CRC of two byte runs joined, from the CRCs of each. HDFS's composite
 * file checksums are CRC32C composed the same way; Hadoop's own {@code CrcUtil} is private API
 * whose {@code compose} changed signature in 3.5, so the copy keeps its few lines here.
 *
 * <p>Polynomials are in the reflected bit order CRC32C uses: bit 31 is x^0, bit 0 is x^31.
 */
public final class Crc32c {
  private static final int POLYNOMIAL = 0x82f63b78; // Castagnoli, reflected
  private static final int ONE = 0x80000000; // x^0
  private static final int X8 = 1 << 23; // x^8: one byte

  private Crc32c() {
  }

  /**
   * The CRC32C of A followed by B, given A's CRC, B's CRC and B's length in bytes:
   * crc(A) · x^(8·|B|) + crc(B) over GF(2) modulo the polynomial (the all-ones initial and
   * final values cancel in this form).
   */
  public static int compose(int crcA, int crcB, long lengthB) {
    if (lengthB < 0) {
      throw new IllegalArgumentException("negative length " + lengthB);
    }
    return multiply(crcA, monomial(lengthB)) ^ crcB;
  }

  /** x^(8·bytes) mod the polynomial, by squaring. */
  private static int monomial(long bytes) {
    int result = ONE;
    int base = X8;
    for (long rest = bytes; rest > 0; rest >>>= 1) {
      if ((rest & 1) != 0) {
        result = multiply(result, base);
      }
      base = multiply(base, base);
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
}
