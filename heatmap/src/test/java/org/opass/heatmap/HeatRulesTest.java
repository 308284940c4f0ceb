package org.opass.heatmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HeatRulesTest {

  @Test
  void aLocalNodeIsTooHotAboveTheRatioTimesTheMeanButNeverBelowTheRatioItself() {
    assertFalse(HeatRules.tooHot(2, 2.0, 0.1), "the mean counts as at least 1");
    assertTrue(HeatRules.tooHot(3, 2.0, 0.1));
    assertFalse(HeatRules.tooHot(8, 2.0, 4.0));
    assertTrue(HeatRules.tooHot(9, 2.0, 4.0));
    for (int heat = 0; heat < 20; heat++) {
      for (double mean : new double[] {0, 0.5, 1, 3.3, 10}) {
        if (!HeatRules.mayBeTooHot(heat, 2.0)) {
          assertFalse(HeatRules.tooHot(heat, 2.0, mean), heat + " at mean " + mean);
        }
      }
    }
  }

  @Test
  void coolerIsLessHeatThenLongerAgo() {
    assertTrue(HeatRules.compare(1, 500, 2, 0) < 0, "heat first");
    assertTrue(HeatRules.compare(2, 0, 1, 500) > 0);
    assertTrue(HeatRules.compare(1, 10, 1, 20) < 0, "then least recently selected");
    assertTrue(HeatRules.compare(1, Long.MIN_VALUE, 1, 20) < 0, "never selected is oldest");
    assertEquals(0, HeatRules.compare(1, 10, 1, 10));
  }

  @Test
  void rowsCompareAsTheirFigures() {
    AtomicLong clock = new AtomicLong(5);
    HeatTable h = HeatTable.builder().nanoClock(clock::get).build();
    HeatTable.Row a = h.observeRow("a", "a", 0, 1, true);
    HeatTable.Row b = h.observeRow("b", "b", 0, 1, true);
    h.grant(a);
    clock.set(9);
    h.grant(b);
    assertTrue(HeatRules.cooler(0, a, 1, b), "heat first");
    assertTrue(HeatRules.cooler(1, a, 1, b), "then the one selected longer ago");
    assertFalse(HeatRules.cooler(1, b, 1, a));
    assertTrue(HeatRules.cooler(1, null, 1, a), "an untracked node was never selected");
    assertFalse(HeatRules.cooler(1, a, 1, a));
  }
}
