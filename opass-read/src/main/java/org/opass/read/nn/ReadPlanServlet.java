package org.opass.read.nn;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import javax.servlet.ServletContext;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.common.JspHelper;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AuthorizationException;
import org.apache.hadoop.util.Time;
import org.eclipse.jetty.http.BadMessageException;
import org.opass.read.wire.PlanRefusedException;
import org.opass.read.wire.PlanWire;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /opass/read-plan} on the NameNode's web server. The caller is identified the way
 * WebHDFS identifies it ({@code user.name} on an insecure cluster, SPNEGO or a delegation
 * token through the web server's authentication filter on a secure one).
 * <ul>
 *   <li>{@code POST} a request document ({@link ReadPlanService}; JSON whatever the
 *   {@code Content-Type}, so {@code curl -d @plan.json} works too): 200 and the plan;
 *   {@code POST ?id=plan-...}: the same, kept under that id (an observer's copy of the
 *   active's plan).</li>
 *   <li>{@code GET}: the caller's live plans (every plan, for the superuser).</li>
 *   <li>{@code DELETE ?id=plan-N}: drops one of the caller's plans.</li>
 * </ul>
 * On an HA nameservice the active NameNode serves all three; an observer, which sorts the reads
 * of {@code ObserverReadProxyProvider} clients, serves {@code POST ?id=} and {@code DELETE};
 * answers carry the NameNode's {@code "ha_state"}. Every other answer is
 * {@code {"error": "..."}} naming the problem: 400 bad request, 401 not authenticated, 403 not
 * allowed, 404 no such file or plan, 405 method, 408 body too slow, 409 a plan id in use, 413
 * too big (split it), 415 a form-encoded body that reached the endpoint already read (only if
 * {@link KeepBodyFilter} could not be mapped), 429 the caller's share of plans is used up, 503
 * busy or full (both with {@code Retry-After}) or a NameNode that does not serve the request
 * (with {@code "ha_state"}: standby, observer), 500 our own failure (logged once per cause on
 * the NameNode; reads then fall back to online balancing). No exception text or stack trace is
 * sent, whatever fails, {@code StackOverflowError} included.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public class ReadPlanServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ReadPlanServlet.class);
  private static final JsonFactory JSON = new JsonFactory();

  /** Servlet-context attribute holding the {@link ReadPlanService}. */
  static final String SERVICE_ATTRIBUTE = "opass.read.plan.service";
  /** Servlet-context attribute: why every request is refused (401), or absent. */
  static final String REFUSAL_ATTRIBUTE = "opass.read.plan.refusal";
  /** A body that has not arrived in this time is refused (408), freeing its place. */
  static final long BODY_TIMEOUT_MILLIS = 30_000;
  private static final String ALLOW = "GET, POST, DELETE, OPTIONS";

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    ReadPlanService service = (ReadPlanService) getServletContext()
        .getAttribute(SERVICE_ATTRIBUTE);
    int status;
    // A request with a body ends its connection. A refusal may leave the body unread; Jetty
    // then closes the connection after the answer, and a client that pooled it meanwhile
    // fails its next request ("Unexpected end of file"). Saying so in the answer avoids that,
    // and a plan is one request anyway.
    boolean body = req.getContentLengthLong() > 0
        || "chunked".equalsIgnoreCase(req.getHeader("Transfer-Encoding"));
    if (body) {
      resp.setHeader("Connection", "close");
    }
    if ("OPTIONS".equals(req.getMethod())) {
      resp.setHeader("Allow", ALLOW);
    }
    try {
      byte[] out = handle(service, req);
      status = 200;
      send(resp, status, out, 0);
    } catch (PlanRefusedException e) {
      status = e.status();
      send(resp, status, e.haState() == null ? error(e.getMessage())
          : object(PlanWire.ERROR, e.getMessage(), PlanWire.HA_STATE, e.haState()),
          e.retryAfterSeconds());
    } catch (BadMessageException e) { // Jetty, reading a malformed query string or form
      status = 400;
      send(resp, status, error("the request's query string is not valid (percent-encoded "
          + "UTF-8)"), 0);
    } catch (Throwable t) { // StackOverflowError and the like too: never Jetty's HTML page
      status = 500;
      if (service == null || service.metrics().firstOf(t.getClass().getName())) {
        LOG.warn("Opass read plan request failed; reads it would have planned are balanced "
            + "online (each cause is logged once)", t);
      }
      send(resp, status, error("the NameNode could not plan this request (internal error, "
          + "logged on the NameNode); reads are balanced online meanwhile"), 0);
    }
    if (service != null) {
      service.metrics().answered(status);
    }
  }

  private byte[] handle(ReadPlanService service, HttpServletRequest req)
      throws PlanRefusedException, IOException {
    Object refusal = getServletContext().getAttribute(REFUSAL_ATTRIBUTE);
    if (refusal != null) {
      throw new PlanRefusedException(401, refusal.toString());
    }
    if (service == null) {
      throw new PlanRefusedException(503, "Opass read plans are not running on this NameNode");
    }
    String method = req.getMethod();
    if ("OPTIONS".equals(method)) {
      // what a SPNEGO client (Hadoop's AuthenticatedURL) sends with its token, and expects 200
      return object("allow", ALLOW);
    }
    // An observer sorts the reads of ObserverReadProxyProvider clients: it keeps copies of the
    // active's plans (POST ?id=) and drops them (DELETE); plans are made and listed by the
    // active. A standby sorts no read.
    if (!service.sortsReads() || !service.isActive() && "GET".equals(method)) {
      throw notServing(service.haState());
    }
    if ("POST".equals(method)) {
      return post(service, req);
    }
    if ("GET".equals(method)) {
      return service.list(caller(req));
    }
    if ("DELETE".equals(method)) {
      String id = req.getParameter("id");
      if (id == null || id.isEmpty()) {
        throw new PlanRefusedException(400, "DELETE needs ?id=<plan id>");
      }
      service.delete(caller(req), id);
      return object("deleted", id, PlanWire.HA_STATE, service.haState());
    }
    throw new PlanRefusedException(405, "method " + PlanPaths.shorten(method)
        + " is not supported: POST a plan, GET your plans, DELETE ?id=<plan id>");
  }

  private byte[] post(ReadPlanService service, HttpServletRequest req)
      throws PlanRefusedException, IOException {
    // The body is JSON whatever the Content-Type says (curl -d sends form encoding); a
    // form-encoded one reaches here unread thanks to KeepBodyFilter, and it is read before
    // anything reads parameters here (the caller's user.name).
    if (KeepBodyFilter.isForm(req.getContentType()) && req.getAttribute(KeepBodyFilter.KEPT)
        == null) {
      throw new PlanRefusedException(415, "the form-encoded body was read as form fields "
          + "before it reached the endpoint; send it with Content-Type: application/json "
          + "(curl: -H 'Content-Type: application/json' --data-binary @plan.json)");
    }
    int max = service.maxRequestBytes();
    long declared = req.getContentLengthLong();
    if (declared > max) {
      throw tooBig(declared, max);
    }
    if (!service.tryBegin()) {
      throw new PlanRefusedException(503, "the NameNode is planning as many requests as "
          + ReadBalanceKeys.PLAN_MAX_CONCURRENT_REQUESTS + " allows; retry shortly", 1);
    }
    try {
      byte[] body = readBody(req.getInputStream(), max, declared);
      // read after the body (a form-encoded body must not be parsed as parameters): the
      // active makes plans, observers keep copies of them under the active's ids
      String id = req.getParameter("id");
      if (service.isActive() != (id == null)) {
        throw id == null ? notServing(service.haState())
            : new PlanRefusedException(400, "POST ?id= gives an observer a copy of the active "
                + "NameNode's plan; this NameNode is " + service.haState()
                + ": POST without an id");
      }
      return service.submit(caller(req), body, id);
    } finally {
      service.end();
    }
  }

  private UserGroupInformation caller(HttpServletRequest req) throws PlanRefusedException {
    ServletContext ctx = getServletContext();
    try {
      Configuration conf = (Configuration) ctx.getAttribute(JspHelper.CURRENT_CONF);
      return JspHelper.getUGI(ctx, req, conf);
    } catch (AuthorizationException e) {
      throw new PlanRefusedException(403, "the caller may not act as the user it names "
          + "(proxy-user settings, hadoop.proxyuser.*)");
    } catch (IOException e) {
      throw new PlanRefusedException(401, "not authenticated: on a secure cluster use SPNEGO "
          + "(curl --negotiate -u :) or a delegation token");
    } catch (IllegalArgumentException e) {
      throw new PlanRefusedException(400, "user.name or doas is not a valid user name");
    }
  }

  /** Reads at most {@code max} bytes, within {@link #BODY_TIMEOUT_MILLIS}. */
  static byte[] readBody(InputStream in, int max, long declared)
      throws IOException, PlanRefusedException {
    long start = Time.monotonicNow();
    ByteArrayOutputStream out = new ByteArrayOutputStream(
        declared > 0 ? (int) declared : Math.min(max, 64 << 10));
    byte[] buf = new byte[64 << 10];
    for (int n = in.read(buf); n > 0; n = in.read(buf)) {
      if (out.size() + n > max) {
        throw tooBig(out.size() + (long) n, max);
      }
      out.write(buf, 0, n);
      if (Time.monotonicNow() - start > BODY_TIMEOUT_MILLIS) {
        throw new PlanRefusedException(408, "the request body took more than "
            + BODY_TIMEOUT_MILLIS / 1000 + " s to arrive");
      }
    }
    return out.toByteArray();
  }

  /** 503 from a NameNode in {@code haState} (standby, observer): plans live on the active. */
  private static PlanRefusedException notServing(String haState) {
    return new PlanRefusedException(503, "this NameNode is " + haState + "; read plans are made "
        + "and listed by the active NameNode of the nameservice: ask it (an observer keeps "
        + "copies of the active's plans: POST ?id=)", 0, haState);
  }

  private static PlanRefusedException tooBig(long bytes, int max) {
    return new PlanRefusedException(413, "the request body has " + bytes + " bytes or more; "
        + "at most " + max + " (" + ReadBalanceKeys.PLAN_MAX_REQUEST_BYTES + "): split the batch");
  }

  static byte[] error(String message) throws IOException {
    return object(PlanWire.ERROR, message);
  }

  /** {@code {"field": "value", ...}}, of field and value pairs. */
  private static byte[] object(String... fieldsAndValues) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      for (int i = 0; i < fieldsAndValues.length; i += 2) {
        g.writeStringField(fieldsAndValues[i], fieldsAndValues[i + 1]);
      }
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  private static void send(HttpServletResponse resp, int status, byte[] json,
      int retryAfterSeconds) throws IOException {
    if (resp.isCommitted()) {
      return; // the client went away mid-answer
    }
    resp.setStatus(status);
    resp.setContentType("application/json; charset=utf-8");
    if (retryAfterSeconds > 0) {
      resp.setHeader("Retry-After", Integer.toString(retryAfterSeconds));
    }
    if (status == 405) {
      resp.setHeader("Allow", ALLOW);
    }
    resp.setContentLength(json.length);
    resp.getOutputStream().write(json);
  }
}
