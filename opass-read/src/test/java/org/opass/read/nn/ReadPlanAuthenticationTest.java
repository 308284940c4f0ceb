package org.opass.read.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.security.AuthenticationFilterInitializer;
import org.junit.jupiter.api.Test;
import org.opass.read.wire.PlanWire;

/**
 * The endpoint's security gate, on a real web server (Hadoop's {@code HttpServer2}) configured
 * as a NameNode's could be. A Kerberos KDC is not needed: what is checked is that, with
 * Kerberos on, nothing is served unless an authentication filter guards the endpoint.
 */
class ReadPlanAuthenticationTest {

  private static HttpServer2 server(Configuration conf) throws Exception {
    return new HttpServer2.Builder().setName("plan-test").setConf(conf).setFindPort(true)
        .addEndpoint(URI.create("http://127.0.0.1:0")).build();
  }

  private static Configuration kerberos() {
    Configuration conf = new Configuration();
    conf.set("hadoop.security.authentication", "kerberos");
    return conf;
  }

  @Test
  void kerberosWithoutAnAuthenticationFilterRefusesEveryRequest() throws Exception {
    Configuration conf = kerberos(); // the default filter, StaticUserWebFilter, authenticates
    // no one
    HttpServer2 http = server(conf);
    String refusal = ReadPlanPlugin.authenticationProblem(conf, http.getWebAppContext());
    assertNotNull(refusal);
    assertTrue(refusal.contains("hadoop.http.filter.initializers")
        && refusal.contains("AuthenticationFilterInitializer"), refusal);
    http.setAttribute(ReadPlanServlet.REFUSAL_ATTRIBUTE, refusal);
    http.addInternalServlet("opassReadPlan", PlanWire.PATH, ReadPlanServlet.class);
    http.start();
    try {
      URL url = new URL("http://127.0.0.1:" + http.getConnectorAddress(0).getPort()
          + PlanWire.PATH + "?user.name=hdfs");
      for (String method : new String[] {"GET", "POST", "DELETE"}) {
        HttpURLConnection c = (HttpURLConnection) url.openConnection();
        c.setRequestMethod(method);
        if (method.equals("POST")) {
          c.setDoOutput(true);
          c.setRequestProperty("Content-Type", "application/json");
          try (OutputStream os = c.getOutputStream()) {
            os.write("{\"reads\": [{\"path\": \"/f\", \"reader\": \"h\"}]}"
                .getBytes(StandardCharsets.UTF_8));
          }
        }
        assertEquals(401, c.getResponseCode(), method);
        assertTrue(c.getContentType().startsWith("application/json"), c.getContentType());
        try (InputStream in = c.getErrorStream()) {
          String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
          assertTrue(body.contains("Kerberos is on but no authentication filter"), body);
        }
      }
    } finally {
      http.stop();
    }
  }

  @Test
  void kerberosWithAnAuthenticationFilterOrSimpleAuthIsServed() throws Exception {
    Configuration guarded = kerberos();
    guarded.set("hadoop.http.filter.initializers",
        AuthenticationFilterInitializer.class.getName());
    guarded.set("hadoop.http.authentication.type", "kerberos");
    assertNull(ReadPlanPlugin.authenticationProblem(guarded, server(guarded).getWebAppContext()));

    Configuration pseudo = kerberos(); // a filter that trusts user.name does not count
    pseudo.set("hadoop.http.filter.initializers",
        AuthenticationFilterInitializer.class.getName());
    pseudo.set("hadoop.http.authentication.type", "simple");
    assertNotNull(ReadPlanPlugin.authenticationProblem(pseudo, server(pseudo).getWebAppContext()));

    Configuration simple = new Configuration();
    assertNull(ReadPlanPlugin.authenticationProblem(simple, server(simple).getWebAppContext()));
  }
}
