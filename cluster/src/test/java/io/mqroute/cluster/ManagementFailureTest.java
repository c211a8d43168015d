package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A node whose management endpoint does not start stops its system without exiting the JVM, even
 * with {@code exit-jvm = on} (a real node's setting): the caller reports the error and chooses the
 * exit code (2). If the shutdown exited the JVM, this test's fork would die and the build fail.
 */
@Tag("integration")
class ManagementFailureTest {
  @Test
  void aManagementStartFailureStopsTheNodeButNotTheJvm() {
    Config config =
        ConfigFactory.parseString(
                """
        pekko.remote.artery.canonical.port = 0
        pekko.cluster.roles = [host]
        pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
        pekko.coordinated-shutdown.exit-jvm = on
        pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
        pekko.management.http.port = 0
        # a route that cannot be loaded makes PekkoManagement.start() fail after the system is up
        pekko.management.http.routes.broken = "io.mqroute.cluster.NoSuchRoutes"
        pekko.loglevel = OFF
        """)
            .withFallback(TestKeys.artery())
            .withFallback(ConfigFactory.parseResources("mqroute-node.conf"))
            .withFallback(ConfigFactory.load())
            .resolve();
    assertThatThrownBy(() -> ClusterNode.start(NodeSettings.Role.HOST, config))
        .isInstanceOf(NodeConfigException.class)
        .hasMessageStartingWith("cannot start management on port 0");
    assertThat(Thread.currentThread().isAlive()).as("still running").isTrue();
  }
}
