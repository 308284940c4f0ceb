package org.opass.tools.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/** Plain Java2D bar charts for benchmark reports (no plotting dependency needed). */
public final class Charts {
  private static final Color[] PALETTE = {new Color(0x9e9e9e), new Color(0x4c78a8),
      new Color(0xf58518), new Color(0x54a24b)};
  private static final int W = 1100;
  private static final int H = 360;

  /** One panel: grouped bars, one group per category, one bar per series. */
  public record Panel(String title, String yLabel, List<String> categories,
      Map<String, double[]> series) {
  }

  private Charts() {
  }

  /** Stacks the panels vertically into one PNG. */
  public static void write(File png, List<Panel> panels) throws IOException {
    BufferedImage img = new BufferedImage(W, H * panels.size(), BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, img.getWidth(), img.getHeight());
    for (int i = 0; i < panels.size(); i++) {
      draw(g, panels.get(i), i * H);
    }
    g.dispose();
    png.getParentFile().mkdirs();
    ImageIO.write(img, "png", png);
  }

  private static void draw(Graphics2D g, Panel p, int top) {
    int left = 70;
    int right = W - 20;
    int plotTop = top + 50;
    int bottom = top + H - 50;
    double max = 0;
    for (double[] v : p.series().values()) {
      for (double x : v) {
        max = Math.max(max, x);
      }
    }
    max = max <= 0 ? 1 : niceCeil(max);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    g.drawString(p.title(), left, top + 22);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    // y axis with 5 gridlines
    for (int k = 0; k <= 5; k++) {
      double v = max * k / 5;
      int y = bottom - (int) ((bottom - plotTop) * (v / max));
      g.setColor(new Color(0xe0e0e0));
      g.drawLine(left, y, right, y);
      g.setColor(Color.DARK_GRAY);
      g.drawString(fmt(v), 5, y + 4);
    }
    g.drawString(p.yLabel(), left, plotTop - 8);
    int groups = p.categories().size();
    int nSeries = p.series().size();
    double groupW = (double) (right - left) / Math.max(1, groups);
    double barW = Math.max(1, groupW * 0.8 / nSeries);
    int s = 0;
    for (Map.Entry<String, double[]> e : p.series().entrySet()) {
      g.setColor(PALETTE[s % PALETTE.length]);
      double[] v = e.getValue();
      for (int c = 0; c < Math.min(groups, v.length); c++) {
        int h = (int) ((bottom - plotTop) * (v[c] / max));
        int x = (int) (left + c * groupW + groupW * 0.1 + s * barW);
        g.fillRect(x, bottom - h, (int) Math.ceil(barW), h);
      }
      // legend
      int lx = right - 260;
      int ly = top + 12 + s * 16;
      g.fillRect(lx, ly, 12, 12);
      g.setColor(Color.BLACK);
      g.drawString(e.getKey(), lx + 18, ly + 11);
      s++;
    }
    g.setColor(Color.BLACK);
    g.setStroke(new BasicStroke(1));
    g.drawLine(left, bottom, right, bottom);
    int every = Math.max(1, groups / 32);
    for (int c = 0; c < groups; c += every) {
      g.drawString(p.categories().get(c), (int) (left + c * groupW + 2), bottom + 14);
    }
  }

  private static double niceCeil(double v) {
    double mag = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
      if (m * mag >= v) {
        return m * mag;
      }
    }
    return 10 * mag;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? String.format("%.0f", v) : String.format("%.2f", v);
  }
}
