package org.opass.tools.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import javax.net.SocketFactory;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;

/**
 * A {@link SocketFactory} like Hadoop's {@code StandardSocketFactory} that binds every socket it
 * creates to the local address in {@value #BIND_ADDRESS_KEY}, so that one JVM can play several
 * hosts on the loopback network (127.0.0.0/8).
 *
 * <p>Installed with {@code hadoop.rpc.socket.factory.class.default}, it is used by every outgoing
 * connection of a client or DataNode whose configuration names it: IPC to the NameNode (which
 * takes the caller's host from the connection's source address), the client's data-transfer
 * connections to DataNodes ({@code DataStreamer}, {@code DFSClient#newConnectedPeer}), and a
 * DataNode's own connections to other DataNodes (pipeline mirroring, block transfer), which go
 * through {@code DataNode#newSocket()}.
 *
 * <p>Its sockets come back bound, so a caller must not bind them again: leave
 * {@code dfs.client.local.interfaces} unset.
 *
 * <p>Equality is by bind address: Hadoop's IPC layer keeps one client, and with it one set of
 * connections, per distinct factory, and factories for different hosts must not share them.
 */
public final class HostBindingSocketFactory extends SocketFactory implements Configurable {

  /** The local address to bind to; when unset, sockets are left unbound. */
  public static final String BIND_ADDRESS_KEY = "opass.test.bind.address";

  private Configuration conf;
  private InetAddress bindAddress;
  private boolean kerberos;

  /** For Hadoop's reflection ({@code NetUtils.getDefaultSocketFactory}), which calls setConf. */
  public HostBindingSocketFactory() {
  }

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    kerberos = "kerberos".equalsIgnoreCase(conf.getTrimmed("hadoop.security.authentication",
        ""));
    String address = conf.getTrimmed(BIND_ADDRESS_KEY, "");
    try {
      bindAddress = address.isEmpty() ? null : InetAddress.getByName(address);
    } catch (IOException e) {
      throw new IllegalArgumentException(BIND_ADDRESS_KEY + " = " + address, e);
    }
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public Socket createSocket() throws IOException {
    // An NIO socket, as StandardSocketFactory makes: Hadoop's socket streams need its channel.
    // But on a kerberized cluster Hadoop's IPC client binds a socket again, to the host of its
    // principal (Client.Connection#setupSocket), which a bound NIO socket refuses: there, a
    // plain socket that keeps its host's address (IPC and data transfer take plain sockets).
    Socket socket = kerberos && bindAddress != null ? new HostBoundSocket()
        : SocketChannel.open().socket();
    if (bindAddress != null) {
      bind(socket, new InetSocketAddress(bindAddress, 0));
    }
    return socket;
  }

  /** Bound once, to its host's address; a later bind keeps it. */
  private static final class HostBoundSocket extends Socket {
    @Override
    public void bind(SocketAddress local) throws IOException {
      if (!isBound()) {
        super.bind(local);
      }
    }
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return connect(createSocket(), new InetSocketAddress(host, port));
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return connect(createSocket(), new InetSocketAddress(host, port));
  }

  // A caller that names a local address explicitly gets that address, as with the stock factory.
  @Override
  public Socket createSocket(InetAddress host, int port, InetAddress localAddress, int localPort)
      throws IOException {
    Socket socket = SocketChannel.open().socket();
    bind(socket, new InetSocketAddress(localAddress, localPort));
    return connect(socket, new InetSocketAddress(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localAddress, int localPort)
      throws IOException {
    Socket socket = SocketChannel.open().socket();
    bind(socket, new InetSocketAddress(localAddress, localPort));
    return connect(socket, new InetSocketAddress(host, port));
  }

  private static void bind(Socket socket, InetSocketAddress local) throws IOException {
    try {
      socket.bind(local);
    } catch (IOException e) {
      socket.close();
      throw new IOException("cannot bind a socket to " + local, e);
    }
  }

  private static Socket connect(Socket socket, InetSocketAddress remote) throws IOException {
    try {
      socket.connect(remote);
      return socket;
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof HostBindingSocketFactory
        && Objects.equals(bindAddress, ((HostBindingSocketFactory) other).bindAddress)
        && kerberos == ((HostBindingSocketFactory) other).kerberos;
  }

  @Override
  public int hashCode() {
    return Objects.hash(HostBindingSocketFactory.class, bindAddress, kerberos);
  }

  @Override
  public String toString() {
    return "HostBindingSocketFactory[" + (bindAddress == null ? "unbound" : bindAddress) + "]";
  }
}
