package org.apache.hadoop.hdfs.server.datanode;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.apache.hadoop.util.VersionInfo;

/**
 * Reaches the package-private transfer server of a DataNode, for the emulated cluster. The
 * DataNode read throttle came in Hadoop 3.4.0; on 3.3 it is absent, hence the reflection.
 */
public final class DataNodeThrottles {
  private static final Method SET_READ_THROTTLER = readThrottlerSetter();

  private DataNodeThrottles() {
  }

  private static Method readThrottlerSetter() {
    try {
      return DataXceiverServer.class.getDeclaredMethod("setReadThrottler",
          DataTransferThrottler.class);
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
    if (SET_READ_THROTTLER == null) {
      throw new UnsupportedOperationException("Hadoop " + VersionInfo.getVersion()
          + " has no DataNode read throttle (it came in 3.4.0)");
    }
    try {
      SET_READ_THROTTLER.setAccessible(true);
      SET_READ_THROTTLER.invoke(dn.getXferServer(), throttler);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("could not set the read throttle of " + dn, e);
    }
  }
}
