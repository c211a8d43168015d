package io.mqroute.protocol.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The batch messages: a count, then each element in its own frozen layout ({@link
 * RequestSerializer}, {@link CompletionSerializer}), then (requests only) a flag byte and the reply
 * address. The count is checked against {@link RequestBatch#MAX_SIZE} before anything is allocated
 * for it.
 *
 * <pre>
 *   RequestBatch:    count varint+ · request* · flags byte (bit 0: reply address follows, bit 1: a fence
 *                    follows) · [reply address] · [sentNanos zigzag varlong · fenceNanos varlong+ (> 0)]
 *   CompletionBatch: count varint+ · completion*
 * </pre>
 *
 * <p>A batch without a fence keeps the bytes it had before fences existed (bit 1 clear).
 */
final class BatchSerializers {
  private BatchSerializers() {}

  static int readCount(Input in) {
    int n = in.readVarInt(true);
    if (n < 1 || n > RequestBatch.MAX_SIZE) {
      throw new KryoException("batch count " + n + " outside 1.." + RequestBatch.MAX_SIZE);
    }
    return n;
  }

  static final class Requests extends Serializer<RequestBatch> {
    private final RequestSerializer requests;
    private final ActorRefSerializer refs;

    Requests(RequestSerializer requests, ActorRefSerializer refs) {
      super(false, true);
      this.requests = requests;
      this.refs = refs;
    }

    @Override
    public void write(Kryo kryo, Output out, RequestBatch b) {
      out.writeVarInt(b.requests().size(), true);
      for (Request r : b.requests()) {
        requests.write(kryo, out, r);
      }
      out.writeByte((b.replyTo() != null ? 1 : 0) | (b.fenced() ? 2 : 0));
      if (b.replyTo() != null) {
        refs.write(kryo, out, b.replyTo());
      }
      if (b.fenced()) {
        out.writeVarLong(b.sentNanos(), false);
        out.writeVarLong(b.fenceNanos(), true);
      }
    }

    @Override
    @SuppressWarnings("unchecked")
    public RequestBatch read(Kryo kryo, Input in, Class<? extends RequestBatch> type) {
      int n = readCount(in);
      List<Request> list = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        list.add(requests.read(kryo, in, Request.class));
      }
      int flags = in.readByte();
      if ((flags & ~3) != 0) {
        throw new KryoException("invalid batch flags " + flags);
      }
      ActorRef<CompletionBatch> reply =
          (flags & 1) != 0 ? (ActorRef<CompletionBatch>) refs.read(kryo, in, null) : null;
      if ((flags & 2) == 0) {
        return new RequestBatch(list, reply);
      }
      long sent = in.readVarLong(false);
      long fence = in.readVarLong(true);
      if (fence <= 0) {
        throw new KryoException("batch fence " + fence + " must be > 0");
      }
      return new RequestBatch(list, reply, sent, fence);
    }
  }

  static final class Completions extends Serializer<CompletionBatch> {
    private final CompletionSerializer completions;

    Completions(CompletionSerializer completions) {
      super(false, true);
      this.completions = completions;
    }

    @Override
    public void write(Kryo kryo, Output out, CompletionBatch b) {
      out.writeVarInt(b.completions().size(), true);
      for (Completion c : b.completions()) {
        completions.write(kryo, out, c);
      }
    }

    @Override
    public CompletionBatch read(Kryo kryo, Input in, Class<? extends CompletionBatch> type) {
      int n = readCount(in);
      List<Completion> list = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        list.add(completions.read(kryo, in, Completion.class));
      }
      return new CompletionBatch(list);
    }
  }
}
