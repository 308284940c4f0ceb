package org.opass.e2e.placement;

import org.opass.heatmap.HeatTable;

/** A heat table whose every read and write fails, as a bug or a corrupted table would. */
public final class FailingHeatTable extends HeatTable {
  public FailingHeatTable() {
    super(HeatTable.builder());
  }

  @Override
  public int observe(String nodeId, String name, int xceivers, long heartbeatMillis,
      boolean alive) {
    throw new IllegalStateException("injected heatmap failure");
  }

  @Override
  public Row observeRow(String nodeId, String name, int xceivers, long heartbeatMillis,
      boolean alive) {
    throw new IllegalStateException("injected heatmap failure");
  }

  @Override
  public int heat(String nodeId) {
    throw new IllegalStateException("injected heatmap failure");
  }

  @Override
  public long lastSelectedNanos(String nodeId) {
    throw new IllegalStateException("injected heatmap failure");
  }

  @Override
  public void grant(String nodeId) {
    throw new IllegalStateException("injected heatmap failure");
  }

  @Override
  public void grant(Row row) {
    throw new IllegalStateException("injected heatmap failure");
  }
}
