package io.mqroute.protocol.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;

/**
 * The per-request completion, field by field (see {@link RequestSerializer} for why). Times are
 * sent as the submit time and two deltas, which are small:
 *
 * <pre>
 *   id varlong+ · status varint+ (ordinal, + 64 when data follows) · submitNanos varlong(zigzag)
 *   · dispatch − submit varlong(zigzag) · complete − dispatch varlong(zigzag) · queue varint(zigzag)
 *   · [data length varint+ · data]
 * </pre>
 *
 * A completion without data keeps the format it had before data existed.
 */
final class CompletionSerializer extends Serializer<Completion> {
  private static final Status[] STATUSES = Status.values();
  private static final int DATA = 64;

  CompletionSerializer() {
    super(false, true);
  }

  @Override
  public void write(Kryo kryo, Output out, Completion c) {
    out.writeVarLong(c.id(), true);
    out.writeVarInt(c.status().ordinal() | (c.data() != null ? DATA : 0), true);
    out.writeVarLong(c.submitNanos(), false);
    out.writeVarLong(c.dispatchNanos() - c.submitNanos(), false);
    out.writeVarLong(c.completeNanos() - c.dispatchNanos(), false);
    out.writeVarInt(c.queue(), false);
    if (c.data() != null) {
      out.writeVarInt(c.data().length, true);
      out.writeBytes(c.data());
    }
  }

  @Override
  public Completion read(Kryo kryo, Input in, Class<? extends Completion> type) {
    long id = in.readVarLong(true);
    int flagged = in.readVarInt(true);
    boolean hasData = (flagged & DATA) != 0;
    int status = flagged & ~DATA;
    if (status < 0 || status >= STATUSES.length) {
      throw new KryoException("invalid status ordinal " + status);
    }
    long submit = in.readVarLong(false);
    long dispatch = submit + in.readVarLong(false);
    long complete = dispatch + in.readVarLong(false);
    int queue = in.readVarInt(false);
    byte[] data = null;
    if (hasData) {
      int n = in.readVarInt(true);
      if (n < 0 || n > Request.MAX_DATA || n > in.limit() - in.position()) {
        throw new KryoException(
            "read data of " + n + " bytes: more than the frame holds or MAX_DATA allows");
      }
      data = in.readBytes(n);
    }
    try {
      return new Completion(id, STATUSES[status], submit, dispatch, complete, queue, data);
    } catch (IllegalArgumentException e) {
      throw new KryoException("invalid completion: " + e.getMessage());
    }
  }
}
