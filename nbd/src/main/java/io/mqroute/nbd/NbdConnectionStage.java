package io.mqroute.nbd;

import io.mqroute.nbd.NbdConnection.Action;
import io.mqroute.nbd.NbdConnection.Close;
import io.mqroute.nbd.NbdConnection.Disconnect;
import io.mqroute.nbd.NbdConnection.Send;
import io.mqroute.nbd.NbdConnection.Submit;
import io.mqroute.protocol.RequestTrace;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.FlowShape;
import org.apache.pekko.stream.Inlet;
import org.apache.pekko.stream.Outlet;
import org.apache.pekko.stream.stage.AbstractInHandler;
import org.apache.pekko.stream.stage.AbstractOutHandler;
import org.apache.pekko.stream.stage.AsyncCallback;
import org.apache.pekko.stream.stage.GraphStage;
import org.apache.pekko.stream.stage.GraphStageLogic;
import org.apache.pekko.stream.stage.TimerGraphStageLogic;
import org.apache.pekko.util.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One NBD connection as a stream stage: the socket's bytes in, the server's bytes out. It feeds an
 * {@link NbdConnection} and acts on what it decodes: option replies go out at once, requests go to
 * the connection's {@link NbdBackend.BatchSession} and their simple replies go out as they end, in
 * any order (matched by cookie); what one read decoded goes to the session in one call, and what it
 * answers in one call leaves in one write. Backpressure: at most {@code maxInFlight} requests are
 * between decoding and their reply leaving the stage; at the bound it stops pulling the socket, so
 * a fast client waits in TCP, never in memory. Replies waiting for the socket leave as one
 * ByteString (fewer writes under load).
 *
 * <p>A handshake that has not reached the transmission phase within its timeout ends the
 * connection; so does anything {@link NbdConnection} calls a hard disconnect. A soft disconnect
 * (NBD_CMD_DISC) answers what is in flight first, as the spec requires.
 */
final class NbdConnectionStage extends GraphStage<FlowShape<ByteString, ByteString>> {
  private static final Logger log = LoggerFactory.getLogger(NbdConnectionStage.class);
  private static final String HANDSHAKE_TIMER = "handshake";

  private final Inlet<ByteString> in = Inlet.create("nbd.in");
  private final Outlet<ByteString> out = Outlet.create("nbd.out");
  private final FlowShape<ByteString, ByteString> shape = FlowShape.of(in, out);
  private final NbdServerSettings settings;
  private final NbdBackend backend;
  private final int index;
  private final String peer;
  private final NbdServerStats stats;

  NbdConnectionStage(
      NbdServerSettings settings,
      NbdBackend backend,
      int index,
      String peer,
      NbdServerStats stats) {
    this.settings = settings;
    this.backend = backend;
    this.index = index;
    this.peer = peer;
    this.stats = stats;
  }

  @Override
  public FlowShape<ByteString, ByteString> shape() {
    return shape;
  }

  @Override
  public GraphStageLogic createLogic(Attributes inheritedAttributes) {
    return new TimerGraphStageLogic(shape) {
      private final NbdConnection conn =
          new NbdConnection(settings.exportName(), backend.size(), settings.maxOptions());
      private final List<ByteString> outbox = new ArrayList<>();
      private NbdBackend.BatchSession session;
      private AsyncCallback<List<NbdBackend.Answer>> replied;
      // decoded in this drive, handed to the session in one call at its end
      private final List<NbdBackend.Submission> submissions = new ArrayList<>();
      private int inFlight; // submitted, reply not yet handed to the socket
      private boolean ending; // no more actions: a close or a disconnect, or the client went away
      private boolean hardClose;
      private boolean upstreamDone;
      private boolean transmission;
      // RequestTrace only: cookie -> the request's key, and the keys of replies not pushed yet
      private final java.util.HashMap<Long, Long> traced = new java.util.HashMap<>();
      private final List<Long> sentKeys = new ArrayList<>();

      {
        setHandler(
            in,
            new AbstractInHandler() {
              @Override
              public void onPush() {
                conn.feed(grab(in));
                drive();
              }

              @Override
              public void onUpstreamFinish() {
                upstreamDone = true;
                ending = true;
                drive();
              }

              @Override
              public void onUpstreamFailure(Throwable ex) {
                log.debug("nbd connection {} ({}): {}", index, peer, ex.toString());
                completeStage();
              }
            });
        setHandler(
            out,
            new AbstractOutHandler() {
              @Override
              public void onPull() {
                // the replies just written may have made room under the bound
                drive();
              }

              @Override
              public void onDownstreamFinish(Throwable cause) {
                completeStage();
              }
            });
      }

      @Override
      public void preStart() {
        replied = createAsyncCallback(this::onAnswers);
        session = backend.openBatched(index, replied::invoke);
        outbox.add(conn.greeting());
        scheduleOnce(HANDSHAKE_TIMER, settings.handshakeTimeout());
        pull(in);
      }

      @Override
      public void postStop() {
        if (transmission) {
          stats.inTransmission.decrementAndGet();
        }
        if (session != null) {
          session.close();
        }
      }

      @Override
      public void onTimer(Object key) {
        if (!conn.inTransmission() && !ending) {
          stats.countAndLog(
              log,
              NbdServerStats.HANDSHAKE_TIMEOUT,
              "nbd connection from {}: no transmission phase after {} (handshake-timeout), closed",
              peer,
              settings.handshakeTimeout());
          completeStage();
        }
      }

      private boolean mayTakeMore() {
        return !ending && inFlight + outbox.size() < settings.maxInFlight();
      }

      /**
       * Decodes and acts while the bound allows, then pulls for more when that is what is missing.
       */
      private void drive() {
        flush();
        boolean needInput = false;
        while (mayTakeMore()) {
          Action a = conn.next();
          if (a == null) {
            needInput = true;
            break;
          }
          act(a);
        }
        submitDecoded();
        if (conn.inTransmission() && !transmission) {
          transmission = true;
          stats.inTransmission.incrementAndGet();
          stats.count(NbdServerStats.TRANSMISSION);
          cancelTimer(HANDSHAKE_TIMER);
        }
        if (needInput && !upstreamDone && !hasBeenPulled(in) && !isClosed(in)) {
          pull(in);
        }
        flush();
        finishIfDone();
      }

      private void act(Action a) {
        if (a instanceof Send s) {
          outbox.add(s.bytes());
        } else if (a instanceof Submit s) {
          inFlight++;
          long submitNanos = System.nanoTime();
          if (RequestTrace.ON) {
            RequestTrace.mark(RequestTrace.NBD_DECODED, submitNanos);
            traced.put(s.cookie(), submitNanos);
          }
          submissions.add(
              new NbdBackend.Submission(
                  s.cookie(), s.op(), s.offset(), s.length(), s.data(), submitNanos));
        } else if (a instanceof Close c) {
          stats.countAndLog(
              log,
              NbdServerStats.PROTOCOL_ERROR,
              "nbd connection from {}: closed: {}",
              peer,
              c.reason());
          ending = true;
          hardClose = true;
        } else if (a instanceof Disconnect d) {
          log.debug("nbd connection {} ({}): {}", index, peer, d.reason());
          ending = true;
        }
      }

      /** What this drive decoded goes to the session in one call (one message to its actor). */
      private void submitDecoded() {
        if (submissions.isEmpty()) {
          return;
        }
        List<NbdBackend.Submission> batch = List.copyOf(submissions);
        submissions.clear();
        try {
          session.submit(batch);
        } catch (RuntimeException e) {
          // every one of them is answered anyway (EIO for the refused ones)
          stats.countAndLog(
              log,
              NbdServerStats.BACKEND_REFUSED,
              "nbd connection {}: backend refused a request: {}",
              index,
              e.toString());
        }
      }

      private void onAnswers(List<NbdBackend.Answer> answers) {
        for (NbdBackend.Answer a : answers) {
          inFlight--;
          if (RequestTrace.ON) {
            Long key = traced.remove(a.cookie());
            if (key != null) {
              RequestTrace.mark(RequestTrace.NBD_REPLY, key);
              sentKeys.add(key);
            }
          }
          if (!hardClose) {
            outbox.add(NbdWire.simpleReply(a.reply().error(), a.cookie(), a.reply().data()));
          }
        }
        drive();
      }

      private void flush() {
        if (outbox.isEmpty() || !isAvailable(out)) {
          return;
        }
        ByteString all = outbox.get(0);
        for (int i = 1; i < outbox.size(); i++) {
          all = all.concat(outbox.get(i));
        }
        outbox.clear();
        if (RequestTrace.ON) {
          sentKeys.forEach(k -> RequestTrace.mark(RequestTrace.NBD_SENT, k));
          sentKeys.clear();
        }
        push(out, all);
      }

      /** Closes once nothing more will come: after a soft disconnect, also nothing in flight. */
      private void finishIfDone() {
        if (!ending || !outbox.isEmpty()) {
          return;
        }
        if (hardClose || inFlight == 0) {
          completeStage();
        }
      }
    };
  }
}
