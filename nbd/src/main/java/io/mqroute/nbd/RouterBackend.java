package io.mqroute.nbd;

import io.mqroute.protocol.Request;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;

/**
 * The export as one file behind a host router: byte {@code o} of the export is byte {@code o} of
 * file {@code fileId} on the router's devices (so the export must fit the devices' {@code
 * file-max-bytes}). Each connection gets a {@link RouterSubmitter} whose requests name CPU {@code
 * connection} (the router takes it modulo its CPU count); the server hands it each read's requests
 * in one message and gets each completion batch's answers back in one ({@link #openBatched}). A
 * trim is answered without a round trip: the spec lets a server ignore it, and the file backend has
 * no hole punching.
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
  public BatchSession openBatched(int connection, Consumer<List<Answer>> answers) {
    ActorRef<RouterSubmitterProtocol.Command> submitter =
        system.systemActorOf(
            RouterSubmitter.create(router, fileId, connection, answers),
            "nbd-" + serial + "-connection-" + connection,
            Props.empty());
    return new BatchSession() {
      @Override
      public void submit(List<Submission> batch) {
        submitter.tell(new RouterSubmitterProtocol.SubmitAll(batch));
      }

      @Override
      public void close() {
        submitter.tell(RouterSubmitterProtocol.Stop.INSTANCE);
      }
    };
  }

  /** One request at a time, each with its future: the batched session underneath. */
  @Override
  public Session open(int connection) {
    ConcurrentHashMap<Long, CompletableFuture<Reply>> waiting = new ConcurrentHashMap<>();
    AtomicLong cookies = new AtomicLong();
    BatchSession batched =
        openBatched(
            connection,
            answers ->
                answers.forEach(
                    a -> {
                      CompletableFuture<Reply> f = waiting.remove(a.cookie());
                      if (f != null) {
                        f.complete(a.reply());
                      }
                    }));
    return new Session() {
      @Override
      public CompletionStage<Reply> submit(Op op, long offset, int length, byte[] data) {
        long cookie = cookies.getAndIncrement();
        CompletableFuture<Reply> reply = new CompletableFuture<>();
        waiting.put(cookie, reply);
        batched.submit(
            List.of(new Submission(cookie, op, offset, length, data, System.nanoTime())));
        return reply;
      }

      @Override
      public void close() {
        batched.close();
      }
    };
  }
}
