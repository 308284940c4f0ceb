package org.opass.read.nn;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.servlet.ServletContext;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.common.JspHelper;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /opass/read-plan} on the NameNode's web server. The caller is identified the way
 * WebHDFS identifies it ({@code user.name} on an insecure cluster, SPNEGO or a delegation
 * token on a secure one).
 * <ul>
 *   <li>{@code POST} a request document ({@link ReadPlanService}): 200 and the plan, or 400
 *   (bad request), 403 (a file the user may not read), 404 (no such file), 413 (too big),
 *   503 (too many live plans); the body then is {@code {"error": "..."}}.</li>
 *   <li>{@code GET}: the live plans.</li>
 *   <li>{@code DELETE ?id=plan-N}: drops one of the caller's plans.</li>
 * </ul>
 */
public class ReadPlanServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ReadPlanServlet.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Servlet-context attribute holding the {@link ReadPlanService}. */
  static final String SERVICE_ATTRIBUTE = "opass.read.plan.service";
  /**
   * Largest request body accepted: about 80,000 reads, more than a 32,768-chunk batch needs,
   * and small enough that parsing it cannot strain the NameNode's heap.
   */
  static final int MAX_BODY_BYTES = 8 << 20;

  @Override
  protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    int len = req.getContentLength();
    if (len > MAX_BODY_BYTES) {
      send(resp, 413, error("request body of " + len + " bytes exceeds " + MAX_BODY_BYTES));
      return;
    }
    byte[] body = req.getInputStream().readNBytes(MAX_BODY_BYTES + 1);
    if (body.length > MAX_BODY_BYTES) {
      send(resp, 413, error("request body exceeds " + MAX_BODY_BYTES + " bytes"));
      return;
    }
    handle(req, resp, (service, user) ->
        service.submit(user, new String(body, StandardCharsets.UTF_8)));
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    handle(req, resp, (service, user) -> service.list());
  }

  @Override
  protected void doDelete(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String id = req.getParameter("id");
    if (id == null || id.isEmpty()) {
      send(resp, 400, error("DELETE needs ?id=<plan id>"));
      return;
    }
    handle(req, resp, (service, user) -> {
      service.delete(user, id);
      return JSON.createObjectNode().put("deleted", id).toString();
    });
  }

  private interface Action {
    String run(ReadPlanService service, UserGroupInformation user)
        throws ReadPlanService.PlanRequestException, IOException;
  }

  private void handle(HttpServletRequest req, HttpServletResponse resp, Action action)
      throws IOException {
    ServletContext ctx = getServletContext();
    ReadPlanService service = (ReadPlanService) ctx.getAttribute(SERVICE_ATTRIBUTE);
    try {
      Configuration conf = (Configuration) ctx.getAttribute(JspHelper.CURRENT_CONF);
      UserGroupInformation user = JspHelper.getUGI(ctx, req, conf);
      send(resp, 200, action.run(service, user));
    } catch (ReadPlanService.PlanRequestException e) {
      send(resp, e.status(), error(e.getMessage()));
    } catch (IOException | RuntimeException | AssertionError e) {
      // The reads themselves still work: they fall back to online balancing.
      LOG.warn("Opass read plan request failed", e);
      send(resp, 500, error("planning failed: " + e));
    }
  }

  static String error(String message) {
    return JSON.createObjectNode().put("error", message).toString();
  }

  private static void send(HttpServletResponse resp, int status, String json)
      throws IOException {
    byte[] out = json.getBytes(StandardCharsets.UTF_8);
    resp.setStatus(status);
    resp.setContentType("application/json; charset=utf-8");
    resp.setContentLength(out.length);
    resp.getOutputStream().write(out);
  }
}
