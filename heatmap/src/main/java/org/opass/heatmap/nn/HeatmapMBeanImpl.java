package org.opass.heatmap.nn;

import java.lang.ref.WeakReference;
import org.opass.heatmap.HeatTable;
import org.opass.heatmap.NodeHeat;

/** JMX view of one heatmap; holds it weakly so a stopped NameNode's table can be collected. */
final class HeatmapMBeanImpl implements HeatmapMXBean {
  private final WeakReference<HeatTable> ref;

  HeatmapMBeanImpl(WeakReference<HeatTable> ref) {
    this.ref = ref;
  }

  private HeatTable heatmap() {
    HeatTable h = ref.get();
    return h != null ? h : HeatTable.builder().maxNodes(1).build();
  }

  @Override
  public int getTrackedNodes() {
    return heatmap().trackedNodes();
  }

  @Override
  public double getMeanHeat() {
    return heatmap().meanHeat();
  }

  @Override
  public long getGrantsTotal() {
    return heatmap().grantsTotal();
  }

  @Override
  public long getChoices() {
    return heatmap().choices();
  }

  @Override
  public long getFallbacks() {
    return heatmap().fallbacks();
  }

  @Override
  public String getNodes() {
    return NodeHeat.toJson(heatmap().snapshot());
  }
}
