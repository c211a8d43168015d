package io.mqroute.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/** Configuration shared by the runtime tests. */
final class TestConfigs {
  /**
   * Pekko logs through SLF4J (logback-test.xml keeps it at WARN) instead of printing INFO to
   * stdout.
   */
  static final Config QUIET =
      ConfigFactory.parseString(
          """
      pekko.loggers = ["org.apache.pekko.event.slf4j.Slf4jLogger"]
      pekko.logging-filter = "org.apache.pekko.event.slf4j.Slf4jLoggingFilter"
      pekko.loglevel = WARNING
      pekko.stdout-loglevel = WARNING
      pekko.log-dead-letters = off
      pekko.log-dead-letters-during-shutdown = off
      """);

  private TestConfigs() {}
}
