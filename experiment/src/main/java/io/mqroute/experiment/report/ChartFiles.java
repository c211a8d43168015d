package io.mqroute.experiment.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/** Saves a chart as {@code <name>.png} and {@code <name>.svg}. */
final class ChartFiles {
  private ChartFiles() {}

  /**
   * Selects headless AWT unless the user chose otherwise. Must run before the first chart is
   * created: AWT reads the property once, and the CLI runs on servers and in CI without a display.
   */
  static void headless() {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  /** Writes both files and returns their paths. */
  static List<Path> save(Chart<?, ?> chart, Path dir, String name) throws IOException {
    Path png = dir.resolve(name + ".png");
    Path svg = dir.resolve(name + ".svg");
    // Streams rather than XChart's file-name overloads: those append extensions and hide the path
    // in errors.
    try (OutputStream out = Files.newOutputStream(png)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
    }
    try (OutputStream out = Files.newOutputStream(svg)) {
      VectorGraphicsEncoder.saveVectorGraphic(
          chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    }
    return List.of(png, svg);
  }
}
