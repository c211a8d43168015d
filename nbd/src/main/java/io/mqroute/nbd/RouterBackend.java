package io.mqroute.nbd;

import io.mqroute.protocol.Request;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;

/**
 * The export as one file behind a host router: byte {@code o} of the export is byte {@code o} of
 * file {@code fileId} on the router's devices (so the export must fit the devices' {@code
 * file-max-bytes}). Each connection gets a {@link RouterSubmitter} whose requests name CPU {@code
 * connection} (the router takes it modulo its CPU count). A trim is answered here without a round
 * trip: the spec lets a server ignore it, and the file backend has no hole punching.
 */
public final class RouterBackend implements NbdBackend {
  private final ActorSystem<?> system;
  private final ActorRef<Request> router;
  private final long size;
  private final long fileId;
  // actor names must be unique in a system that runs several servers (tests)
  private static final AtomicLong SERVERS = new AtomicLong();
  private final long serial = SERVERS.getAndIncrement();

  /**
   * @param router a host router's client endpoint ({@code HostRouter.ROUTERS})
   * @param size the export's size in bytes
   * @param fileId the file the export is on
   */
  public RouterBackend(ActorSystem<?> system, ActorRef<Request> router, long size, long fileId) {
    if (size <= 0) {
      throw new IllegalArgumentException("export size must be > 0, was " + size);
    }
    this.system = system;
    this.router = router;
    this.size = size;
    this.fileId = fileId;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public Session open(int connection) {
    ActorRef<RouterSubmitterProtocol.Command> submitter =
        system.systemActorOf(
            RouterSubmitter.create(router, fileId, connection),
            "nbd-" + serial + "-connection-" + connection,
            Props.empty());
    return new Session() {
      @Override
      public CompletionStage<Reply> submit(Op op, long offset, int length, byte[] data) {
        return submit(op, offset, length, data, System.nanoTime());
      }

      @Override
      public CompletionStage<Reply> submit(
          Op op, long offset, int length, byte[] data, long submitNanos) {
        if (op == Op.TRIM) {
          return CompletableFuture.completedFuture(Reply.OK);
        }
        CompletableFuture<Reply> reply = new CompletableFuture<>();
        submitter.tell(
            new RouterSubmitterProtocol.Submit(op, offset, length, data, submitNanos, reply));
        return reply;
      }

      @Override
      public void close() {
        submitter.tell(RouterSubmitterProtocol.Stop.INSTANCE);
      }
    };
  }
}
