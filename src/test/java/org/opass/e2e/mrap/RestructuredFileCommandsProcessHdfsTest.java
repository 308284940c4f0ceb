package org.opass.e2e.mrap;

import java.io.File;
import java.util.Map;
import org.opass.tools.cluster.ProcessHdfs;

/**
 * {@link RestructuredFileCommandsTest} on a NameNode and three DataNodes in JVMs of their own,
 * configured through their site files, where the issue first saw a moved or replaced
 * restructured file read with wrong bytes: the layout lives in the file, so nothing depends on
 * sharing a process with the NameNode.
 */
class RestructuredFileCommandsProcessHdfsTest extends RestructuredFileCommandsTest {
  @Override
  AutoCloseable startCluster() throws Exception {
    ProcessHdfs hdfs = ProcessHdfs.start(new File("target/e2e/mrap-commands-processes"), "256m",
        3, Map.of("dfs.namenode.fs-limits.min-block-size", Integer.toString(BLOCK)));
    clusterConf = hdfs.clientConf();
    clusterConf.setLong("dfs.blocksize", BLOCK);
    return hdfs;
  }
}
