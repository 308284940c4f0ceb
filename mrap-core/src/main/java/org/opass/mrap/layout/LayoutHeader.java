package org.opass.mrap.layout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The first {@value #BYTES} bytes of a restructured file: what it is, and where its layout (the
 * trailer) is and what it must hash to. It ties the layout to the data: it is written into the
 * file's first chunk and travels with the file through every move and copy, and a file that was
 * appended to or truncated no longer has the length it records. Big-endian:
 * <pre>
 *   0  16 bytes  "MRAP-RESTRUCTURE" (ASCII; a plain file that happens to start so still fails
 *                the header's CRC)
 *  16  int       format version ({@value PackedLayout#VERSION}: packed regions;
 *                {@value TiledLayout#VERSION}: tile-major; {@value PackedLayout#CONTAINER}: a
 *                container of many files, packed)
 *  20  long      data length: where the trailer starts
 *  28  int       trailer length
 *  32  int       CRC32C of the trailer
 *  36  long      the original file's length
 *  44  long      this file's length (data + trailer)
 *  52  int       CRC32C of bytes 0 to 51
 *  56  8 zeros
 * </pre>
 */
public final class LayoutHeader {
  public static final int BYTES = 64;
  private static final byte[] MAGIC = "MRAP-RESTRUCTURE".getBytes(StandardCharsets.US_ASCII);

  private final int version;
  private final long dataLength;
  private final int trailerLength;
  private final int trailerCrc;
  private final long logicalLength;
  private final long fileLength;

  LayoutHeader(int version, long dataLength, int trailerLength, int trailerCrc,
      long logicalLength, long fileLength) {
    this.version = version;
    this.dataLength = dataLength;
    this.trailerLength = trailerLength;
    this.trailerCrc = trailerCrc;
    this.logicalLength = logicalLength;
    this.fileLength = fileLength;
  }

  /** Whether {@code first} (a file's first bytes, at least 16 of them) start like a header. */
  public static boolean looksLikeOne(byte[] first, int length) {
    return length >= MAGIC.length
        && Arrays.equals(Arrays.copyOf(first, MAGIC.length), MAGIC);
  }

  /**
   * Reads a header.
   *
   * @throws IOException naming {@code source} if the bytes start like a header but are not a
   *     whole, undamaged one of a version this release reads
   */
  public static LayoutHeader parse(byte[] bytes, int length, String source) throws IOException {
    if (length < BYTES) {
      throw new IOException(source + " starts like an MRAP restructured file but is only "
          + length + " bytes long: it was cut short");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes, 0, BYTES);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, 52);
    if (b.getInt(52) != (int) crc.getValue()) {
      throw new IOException(source + " starts like an MRAP restructured file but its header "
          + "is damaged (CRC mismatch)");
    }
    int version = b.getInt(16);
    if (version != PackedLayout.VERSION && version != TiledLayout.VERSION
        && version != PackedLayout.CONTAINER) {
      throw new IOException(source + " is an MRAP restructured file of format version "
          + version + "; this release reads versions " + PackedLayout.VERSION + " to "
          + PackedLayout.CONTAINER);
    }
    LayoutHeader h = new LayoutHeader(version, b.getLong(20), b.getInt(28), b.getInt(32),
        b.getLong(36), b.getLong(44));
    if (h.dataLength < BYTES || h.trailerLength < 1
        || h.fileLength != h.dataLength + h.trailerLength || h.logicalLength < 1) {
      throw new IOException(source + ": a damaged MRAP header (data " + h.dataLength
          + ", trailer " + h.trailerLength + ", file " + h.fileLength + " bytes)");
    }
    return h;
  }

  byte[] bytes() {
    ByteBuffer b = ByteBuffer.allocate(BYTES);
    b.put(MAGIC);
    b.putInt(version);
    b.putLong(dataLength);
    b.putInt(trailerLength);
    b.putInt(trailerCrc);
    b.putLong(logicalLength);
    b.putLong(fileLength);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, 52);
    b.putInt((int) crc.getValue());
    return b.array();
  }

  /** The format version: which kind of layout the trailer holds. */
  public int version() {
    return version;
  }

  /** Where the trailer starts: the end of the data. */
  public long dataLength() {
    return dataLength;
  }

  public int trailerLength() {
    return trailerLength;
  }

  /** CRC32C of the trailer: the layout's identity. */
  public int trailerCrc() {
    return trailerCrc;
  }

  /** Length of the original file. */
  public long logicalLength() {
    return logicalLength;
  }

  /** Length the restructured file had when it was written. */
  public long fileLength() {
    return fileLength;
  }
}
