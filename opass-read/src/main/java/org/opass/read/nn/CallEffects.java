package org.opass.read.nn;

import org.apache.hadoop.ipc.Server;
import org.opass.heatmap.HeatTable;

/**
 * What one replica sort takes (a heat grant, a plan's claim), held back until it is known to
 * be a read. HDFS sorts the last block of a file once more at the end of every
 * {@code getBlockLocations} ({@code FSNamesystem#sortLocatedBlocks} sorts
 * {@code getLastLocatedBlock()} on its own, after the located list; Hadoop 3.3 to 3.5). That
 * sort is no read: a claim or grant taken for it is a read that never comes, and a plan's next
 * read of the same holders would find its claim gone. So, within an RPC call, a sort's effects
 * are applied when the call's next sort begins, and the call's last sort (that repeat) has
 * none. Per handler thread (a thread runs one call at a time); outside an RPC call (WebHDFS,
 * direct callers) effects apply at once.
 *
 * <p>Two calls for the same reader and holders that overlap by microseconds may both be served
 * the same planned read; only one of them counts it as served.
 */
final class CallEffects {
  private static final ThreadLocal<CallEffects> CURRENT =
      ThreadLocal.withInitial(CallEffects::new);

  private Server.Call call;
  private HeatTable heatmap;
  private HeatTable.Row row;
  private String uuid;
  private ReadPlanTable plans;
  private ReadPlanTable.Claim claim;

  private CallEffects() {
  }

  /**
   * Called as a sort begins: applies the previous sort's effects if it was in this same call
   * (so it was not the call's last), drops them otherwise; returns where this sort's go.
   */
  static CallEffects begin() {
    Server.Call running = Server.getCurCall().get();
    CallEffects e = CURRENT.get();
    if (e.call != null && e.call == running) {
      e.apply();
    }
    e.clear();
    e.call = running;
    return e;
  }

  /** Grants {@code granted} (an untracked node: {@code nodeId}) once this sort is a read. */
  void grant(HeatTable h, HeatTable.Row granted, String nodeId) {
    if (call == null) {
      grantNow(h, granted, nodeId);
    } else {
      heatmap = h;
      row = granted;
      uuid = nodeId;
    }
  }

  /** Takes {@code planned} from {@code table} once this sort is a read. */
  void take(ReadPlanTable table, ReadPlanTable.Claim planned) {
    if (call == null) {
      table.take(planned);
    } else {
      plans = table;
      claim = planned;
    }
  }

  private void apply() {
    if (claim != null) {
      plans.take(claim);
    }
    if (heatmap != null) {
      grantNow(heatmap, row, uuid);
    }
  }

  private static void grantNow(HeatTable h, HeatTable.Row granted, String nodeId) {
    if (granted != null) {
      h.grant(granted);
    } else {
      h.grant(nodeId);
    }
  }

  private void clear() {
    call = null;
    heatmap = null;
    row = null;
    uuid = null;
    plans = null;
    claim = null;
  }
}
