/**
 * The result files of {@code mqroute run}: {@code result.json}, fio's JSON per variant, {@code
 * results.csv}, XChart plots (PNG and SVG), and the terminal progress bar. Entry point: {@link
 * io.mqroute.experiment.report.ResultFiles}.
 */
package io.mqroute.experiment.report;
