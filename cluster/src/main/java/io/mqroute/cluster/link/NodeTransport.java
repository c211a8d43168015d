package io.mqroute.cluster.link;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.channels.spi.SelectorProvider;

/**
 * The node loop's I/O: Linux epoll through Netty's native transport when it loads here, else the
 * JDK's selector (NIO). Both are epoll underneath; the native one skips the JDK selector's
 * selected-key set and locks and makes fewer system calls per wake-up (BENCHMARKS.md "Native
 * epoll"), which is most of what a request pays per hop besides the wake-up itself.
 */
public final class NodeTransport {
  private NodeTransport() {}

  /**
   * A one-thread loop named {@code name}: native epoll if {@code nativeEpoll} and available,
   * polling for up to {@code spinNanos} after its last work before it blocks ({@link
   * SpinThenBlock}).
   */
  public static EventLoopGroup loop(String name, boolean nativeEpoll, long spinNanos) {
    SelectStrategyFactory wait = SpinThenBlock.factory(spinNanos);
    return new MultiThreadIoEventLoopGroup(
        1,
        new DefaultThreadFactory(name, true),
        nativeEpoll && Epoll.isAvailable()
            ? EpollIoHandler.newFactory(0, wait)
            : NioIoHandler.newFactory(SelectorProvider.provider(), wait));
  }

  /** Whether {@code loop} serves its channels with native epoll. */
  public static boolean isEpoll(EventLoopGroup loop) {
    return loop instanceof IoEventLoopGroup g && g.isIoType(EpollIoHandler.class);
  }

  /** The server-socket channel class {@code loop} can serve. */
  public static Class<? extends ServerChannel> serverChannel(EventLoopGroup loop) {
    return isEpoll(loop) ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  /** The client-socket channel class {@code loop} can serve. */
  public static Class<? extends SocketChannel> socketChannel(EventLoopGroup loop) {
    return isEpoll(loop) ? EpollSocketChannel.class : NioSocketChannel.class;
  }
}
