package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * {@code getBlockLocations} as the NameNode serves it to a client on {@code clientMachine},
 * without the RPC layer, for timing the NameNode's own work (test code; in Hadoop's package
 * because the method is package-private).
 */
public final class NameNodeReads {
  private NameNodeReads() {
  }

  public static LocatedBlocks getBlockLocations(FSNamesystem fsn, String clientMachine,
      String src, long offset, long length) throws IOException {
    return fsn.getBlockLocations(clientMachine, src, offset, length);
  }
}
