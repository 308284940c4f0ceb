package org.apache.hadoop.hdfs.server.datanode;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.apache.hadoop.util.VersionInfo;

/**
 * Reaches the package-private transfer server of a DataNode, for the emulated cluster. The
 * DataNode read and write throttles came in Hadoop 3.4.0; on 3.3 they are absent, hence the
 * reflection.
 */
public final class DataNodeThrottles {
  private static final Method SET_READ_THROTTLER = setter("setReadThrottler");
  private static final Method SET_WRITE_THROTTLER = setter("setWriteThrottler");

  private DataNodeThrottles() {
  }

  private static Method setter(String name) {
    try {
      return DataXceiverServer.class.getDeclaredMethod(name, DataTransferThrottler.class);
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  /** Whether this Hadoop's DataNodes can throttle block reads. */
  public static boolean canThrottleReads() {
    return SET_READ_THROTTLER != null;
  }

  /** Replaces the throttler all of {@code dn}'s block reads share. */
  public static void setReadThrottler(DataNode dn, DataTransferThrottler throttler) {
    set(SET_READ_THROTTLER, "read", dn, throttler);
  }

  /** Replaces the throttler all of {@code dn}'s block writes (and pipeline mirrors) share. */
  public static void setWriteThrottler(DataNode dn, DataTransferThrottler throttler) {
    set(SET_WRITE_THROTTLER, "write", dn, throttler);
  }

  private static void set(Method setter, String what, DataNode dn,
      DataTransferThrottler throttler) {
    if (setter == null) {
      throw new UnsupportedOperationException("Hadoop " + VersionInfo.getVersion()
          + " has no DataNode " + what + " throttle (it came in 3.4.0)");
    }
    try {
      setter.setAccessible(true);
      setter.invoke(dn.getXferServer(), throttler);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("could not set the " + what + " throttle of " + dn, e);
    }
  }
}
