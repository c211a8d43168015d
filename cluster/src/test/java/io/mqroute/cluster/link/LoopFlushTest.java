package io.mqroute.cluster.link;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Frames written in one turn of a real event loop leave in one flush, after the turn's other work
 * (TCP on loopback, on the same kind of loop as a node's).
 */
class LoopFlushTest {
  @Test
  void framesOfOneTurnLeaveInOneFlushAtItsEnd() throws Exception {
    EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try {
      AtomicInteger received = new AtomicInteger();
      CompletableFuture<Void> both = new CompletableFuture<>();
      Channel server =
          new ServerBootstrap()
              .group(loop)
              .channel(NioServerSocketChannel.class)
              .childHandler(
                  new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                      int bytes = ((ByteBuf) msg).readableBytes();
                      ReferenceCountUtil.release(msg);
                      if (received.addAndGet(bytes) == 2) {
                        both.complete(null);
                      }
                    }
                  })
              .bind(new InetSocketAddress("127.0.0.1", 0))
              .sync()
              .channel();
      AtomicInteger flushes = new AtomicInteger();
      Channel ch =
          new Bootstrap()
              .group(loop)
              .channel(NioSocketChannel.class)
              .handler(
                  new ChannelOutboundHandlerAdapter() {
                    @Override
                    public void flush(ChannelHandlerContext ctx) {
                      flushes.incrementAndGet();
                      ctx.flush();
                    }
                  })
              .connect(server.localAddress())
              .sync()
              .channel();
      AtomicInteger flushesInTurn = new AtomicInteger(-1);
      ch.eventLoop()
          .execute(
              () -> {
                ByteBuf a = Unpooled.wrappedBuffer(new byte[] {1});
                ByteBuf b = Unpooled.wrappedBuffer(new byte[] {2});
                LoopFlush.write(ch, a);
                LoopFlush.write(ch, b);
                flushesInTurn.set(flushes.get());
              });
      both.get(10, TimeUnit.SECONDS);
      assertThat(flushesInTurn.get()).as("not flushed while the turn goes on").isZero();
      assertThat(flushes.get()).as("one flush for both frames").isEqualTo(1);
      ch.close().sync();
      server.close().sync();
    } finally {
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
  }
}
