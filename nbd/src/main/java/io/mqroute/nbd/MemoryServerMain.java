package io.mqroute.nbd;

import java.time.Duration;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The NBD server alone in front of the in-memory backend, for measuring the server without a
 * router: {@code java -cp cli/target/mqroute.jar io.mqroute.nbd.MemoryServerMain PORT [MiB]} serves
 * on 127.0.0.1:PORT until killed.
 */
public final class MemoryServerMain {
  private MemoryServerMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: MemoryServerMain PORT [SIZE_MIB]");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    long size = (args.length > 1 ? Long.parseLong(args[1]) : 256) << 20;
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "nbd-memory");
    NbdServer server =
        NbdServer.startAndWait(
            NbdServerSettings.loopback(port), new MemoryBackend(size), Duration.ofSeconds(10));
    System.out.println(
        "nbd://127.0.0.1:" + server.address().getPort() + " (" + size + " bytes in memory)");
    system.getWhenTerminated().toCompletableFuture().join();
  }
}
