package io.mqroute.nbd;

import io.mqroute.nbd.RouterSubmitterProtocol.Command;
import io.mqroute.nbd.RouterSubmitterProtocol.Completed;
import io.mqroute.nbd.RouterSubmitterProtocol.Flush;
import io.mqroute.nbd.RouterSubmitterProtocol.HostHolds;
import io.mqroute.nbd.RouterSubmitterProtocol.Stop;
import io.mqroute.nbd.RouterSubmitterProtocol.SubmitAll;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.HostAlive;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.RequestTrace;
import io.mqroute.protocol.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * One NBD connection's submitter in front of a host router, as {@code mqroute load}'s {@code
 * RouterClient} is for an fio clone: the connection hands it what it decoded from one read ({@link
 * SubmitAll}), what it gets while handling one message leaves at a self-sent Flush as {@link
 * RequestBatch}es (the router's client endpoint takes batches), and the router answers with {@link
 * CompletionBatch}es, each passed back to the connection as one list of answers. Every request
 * names the connection's CPU, so the router's selectors see each connection as one submitting task
 * on one CPU (static-cpu, mq-map and reduced-v3 treat it as the model treats an application
 * thread). Reads and writes carry their bytes ({@link Request#carriesData()}); a flush is an FSYNC
 * of the export's file; a trim is answered at once (the spec lets a server ignore it, and the file
 * backend punches no holes).
 *
 * <p>Errors: see {@link #nbdError}. When the router stops, everything in flight and everything
 * after ends with EIO. Every submission is answered exactly once.
 */
final class RouterSubmitter extends AbstractBehavior<Command> {
  private record Pending(NbdBackend.Op op, int length, long cookie) {}

  private final ActorRef<Request> router;
  private final long fileId;
  private final int cpu;
  private final Consumer<List<NbdBackend.Answer>> answers;
  private final ActorRef<CompletionBatch> batchSelf;
  private final Map<Long, Pending> pending = new HashMap<>();
  private final ArrayList<Request> out = new ArrayList<>();
  private boolean flushPending;
  private boolean routerGone;
  private long nextId;

  static Behavior<Command> create(
      ActorRef<Request> router, long fileId, int cpu, Consumer<List<NbdBackend.Answer>> answers) {
    return Behaviors.setup(ctx -> new RouterSubmitter(ctx, router, fileId, cpu, answers));
  }

  private RouterSubmitter(
      ActorContext<Command> ctx,
      ActorRef<Request> router,
      long fileId,
      int cpu,
      Consumer<List<NbdBackend.Answer>> answers) {
    super(ctx);
    this.router = router;
    this.fileId = fileId;
    this.cpu = cpu;
    this.answers = answers;
    // one adapter ref for both: whatever answers one completion at a time is understood too
    ctx.messageAdapter(Completion.class, c -> new Completed(List.of(c)));
    this.batchSelf = ctx.messageAdapter(CompletionBatch.class, b -> new Completed(b.completions()));
    ctx.messageAdapter(HostAlive.class, a -> HostHolds.INSTANCE);
    ctx.watch(router);
  }

  /**
   * The NBD error for a router's status. ENOTCONN (no queue: not done), ECONNABORTED (a device's
   * node left, its queue stopped or fell silent with the request on it: fate unknown), EINTR and
   * EAGAIN become EIO, not NBD_ESHUTDOWN: the spec makes a client that receives ESHUTDOWN
   * disconnect, while here one device is gone and the router sends new requests to the others, so
   * only this request failed. ENOMEM is EIO too (the spec asks servers not to return it; on a
   * device it means one ring insertion failed).
   */
  static int nbdError(Status s) {
    return switch (s) {
      case OK -> 0;
      case EINVAL -> NbdWire.EINVAL;
      case ENOSPC -> NbdWire.ENOSPC;
      case EIO, ENOMEM, ENOTCONN, ECONNABORTED, EINTR, EAGAIN -> NbdWire.EIO;
    };
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(SubmitAll.class, this::onSubmitAll)
        .onMessageEquals(Flush.INSTANCE, this::onFlush)
        .onMessageEquals(HostHolds.INSTANCE, () -> this)
        .onMessage(Completed.class, this::onCompleted)
        .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
        .onSignal(Terminated.class, t -> onRouterGone())
        .build();
  }

  private Behavior<Command> onSubmitAll(SubmitAll m) {
    List<NbdBackend.Answer> now = null; // answered without the router
    for (NbdBackend.Submission s : m.batch()) {
      if (routerGone || s.op() == NbdBackend.Op.TRIM) {
        if (now == null) {
          now = new ArrayList<>();
        }
        now.add(
            new NbdBackend.Answer(
                s.cookie(),
                routerGone ? NbdBackend.Reply.error(NbdWire.EIO) : NbdBackend.Reply.OK));
        continue;
      }
      submit(s);
    }
    if (now != null) {
      answers.accept(now);
    }
    if (!out.isEmpty() && !flushPending) {
      flushPending = true;
      getContext().getSelf().tell(Flush.INSTANCE);
    }
    return this;
  }

  private void submit(NbdBackend.Submission s) {
    long id = nextId++;
    if (RequestTrace.ON) {
      RequestTrace.mark(RequestTrace.NBD_SUBMIT, s.submitNanos());
    }
    boolean data = s.op() == NbdBackend.Op.READ || s.op() == NbdBackend.Op.WRITE;
    Op op =
        switch (s.op()) {
          case READ -> Op.READ;
          case WRITE -> Op.WRITE;
          case FLUSH -> Op.FSYNC;
          case TRIM -> throw new IllegalArgumentException("a trim is answered without the router");
        };
    out.add(
        new Request(
            id,
            op,
            fileId,
            data ? s.offset() : 0,
            data ? s.length() : 0,
            true, // NBD clients keep many requests in flight, as io_uring does: async requests
            cpu,
            s.submitNanos(),
            null,
            data,
            s.op() == NbdBackend.Op.WRITE ? s.data() : null));
    pending.put(id, new Pending(s.op(), s.length(), s.cookie()));
  }

  @SuppressWarnings("unchecked")
  private Behavior<Command> onFlush() {
    flushPending = false;
    if (!out.isEmpty()) {
      if (RequestTrace.ON) {
        out.forEach(r -> RequestTrace.mark(RequestTrace.NBD_OUT, r.submitNanos()));
      }
      ActorRef<RequestBatch> batches = (ActorRef<RequestBatch>) (ActorRef<?>) router;
      RequestBatch.split(out, batchSelf).forEach(batches::tell);
      out.clear();
    }
    return this;
  }

  private Behavior<Command> onCompleted(Completed m) {
    List<NbdBackend.Answer> done = new ArrayList<>(m.completions().size());
    for (Completion c : m.completions()) {
      Pending p = pending.remove(c.id());
      if (p == null) {
        continue;
      }
      if (RequestTrace.ON) {
        RequestTrace.mark(RequestTrace.NBD_COMPLETED, c.submitNanos());
      }
      done.add(new NbdBackend.Answer(p.cookie(), reply(p, c)));
    }
    if (!done.isEmpty()) {
      answers.accept(done);
    }
    return this;
  }

  private static NbdBackend.Reply reply(Pending p, Completion c) {
    int error = nbdError(c.status());
    if (error != 0) {
      return NbdBackend.Reply.error(error);
    } else if (p.op() == NbdBackend.Op.READ) {
      // a read that came back without its bytes cannot be answered with data: an I/O error
      return c.data() != null && c.data().length == p.length()
          ? new NbdBackend.Reply(0, c.data())
          : NbdBackend.Reply.error(NbdWire.EIO);
    }
    return NbdBackend.Reply.OK;
  }

  private Behavior<Command> onRouterGone() {
    getContext()
        .getLog()
        .warn(
            "nbd connection on cpu {}: the host router stopped; {} requests end with EIO",
            cpu,
            pending.size());
    routerGone = true;
    List<NbdBackend.Answer> lost = new ArrayList<>(pending.size());
    pending
        .values()
        .forEach(
            p -> lost.add(new NbdBackend.Answer(p.cookie(), NbdBackend.Reply.error(NbdWire.EIO))));
    pending.clear();
    out.clear();
    if (!lost.isEmpty()) {
      answers.accept(lost);
    }
    return this;
  }
}
