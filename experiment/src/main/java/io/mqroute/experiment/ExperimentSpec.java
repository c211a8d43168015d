package io.mqroute.experiment;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A parsed experiment: what to run, and with which seeds.
 *
 * @param variants every variant at every sweep point, variants outer, points inner
 * @param sweepKeys the swept keys (full paths), in the order of the points
 * @param replications independent runs per variant and point, with seeds seed, seed+1, ...
 * @param quick whether the file's quick profile was applied
 * @param sets the command line's {@code --set key=value} pairs, keys with shortcuts expanded
 */
public record ExperimentSpec(
    String name,
    String description,
    long seed,
    Path file,
    List<Variant> variants,
    List<String> sweepKeys,
    int replications,
    List<Expectation> expectations,
    boolean quick,
    Map<String, String> sets) {}
