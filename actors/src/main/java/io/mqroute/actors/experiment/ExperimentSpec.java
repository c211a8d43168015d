package io.mqroute.actors.experiment;

import java.nio.file.Path;
import java.util.List;

/** A parsed experiment: what to run, and with which seed. */
public record ExperimentSpec(String name, String description, long seed, Path file, List<Variant> variants) {}
