package org.opass.tools.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.NetUtils;
import org.junit.jupiter.api.Test;

class HostBindingSocketFactoryTest {

  @Test
  void socketsLeaveFromTheConfiguredAddress() throws IOException {
    HostBindingSocketFactory factory = factoryFor("127.0.0.9");
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
        Socket socket = factory.createSocket()) {
      socket.connect(new InetSocketAddress(server.getInetAddress(), server.getLocalPort()));
      try (Socket accepted = server.accept()) {
        assertEquals(InetAddress.getByName("127.0.0.9"), accepted.getInetAddress());
      }
    }
  }

  @Test
  void factoriesAreEqualExactlyWhenTheyBindToTheSameAddress() {
    assertEquals(factoryFor("127.0.0.3"), factoryFor("127.0.0.3"));
    assertEquals(factoryFor("127.0.0.3").hashCode(), factoryFor("127.0.0.3").hashCode());
    assertNotEquals(factoryFor("127.0.0.3"), factoryFor("127.0.0.4"));
    assertNotEquals(factoryFor("127.0.0.3"), factoryFor(null));
  }

  @Test
  void hadoopInstallsItFromTheConfiguration() {
    Configuration conf = new Configuration(false);
    conf.set(CommonConfigurationKeysPublic.HADOOP_RPC_SOCKET_FACTORY_CLASS_DEFAULT_KEY,
        HostBindingSocketFactory.class.getName());
    conf.set(HostBindingSocketFactory.BIND_ADDRESS_KEY, "127.0.0.5");

    assertEquals(factoryFor("127.0.0.5"), NetUtils.getDefaultSocketFactory(conf));
  }

  private static HostBindingSocketFactory factoryFor(String address) {
    Configuration conf = new Configuration(false);
    if (address != null) {
      conf.set(HostBindingSocketFactory.BIND_ADDRESS_KEY, address);
    }
    HostBindingSocketFactory factory = new HostBindingSocketFactory();
    factory.setConf(conf);
    return factory;
  }
}
