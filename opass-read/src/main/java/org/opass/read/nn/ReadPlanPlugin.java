package org.opass.read.nn;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.authentication.server.AuthenticationFilter;
import org.apache.hadoop.security.authentication.server.PseudoAuthenticationHandler;
import org.apache.hadoop.util.ServicePlugin;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.FilterMapping;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHandler;
import org.opass.read.wire.PlanWire;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Batch read planning on the NameNode ({@code dfs.namenode.plugins}): adds
 * {@code /opass/read-plan} ({@link ReadPlanServlet}) to the NameNode's web server and hands the
 * plans to {@link BalancingNetworkTopology}, which serves them. Needs
 * {@code dfs.net.topology.impl} set to that topology; without it the plugin logs why and stays
 * off. It never stops the NameNode from starting.
 *
 * <p>Security: the endpoint is authenticated by the web server's authentication filter, as
 * WebHDFS is ({@code HttpServer2} ignores the {@code requireAuth} flag of internal servlets).
 * With Kerberos on and no authentication filter guarding the endpoint, the plugin says so at
 * start-up and answers every request 401 rather than trust {@code user.name}.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class ReadPlanPlugin implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(ReadPlanPlugin.class);

  private volatile ReadPlanService service;
  private BalancingNetworkTopology topology;
  private ScheduledExecutorService expiry;
  private boolean metricsRegistered;

  @Override
  public void start(Object running) {
    try {
      if (!(running instanceof NameNode)) {
        LOG.error("{} is a NameNode plugin (dfs.namenode.plugins); not started on {}",
            getClass().getName(), running);
        return;
      }
      NameNode nn = (NameNode) running;
      NetworkTopology t = nn.getNamesystem().getBlockManager().getDatanodeManager()
          .getNetworkTopology();
      if (!(t instanceof BalancingNetworkTopology)) {
        LOG.error("Opass read plans are off: set dfs.net.topology.impl to {} (it is {})",
            BalancingNetworkTopology.class.getName(), t.getClass().getName());
        return;
      }
      BalancingNetworkTopology bt = (BalancingNetworkTopology) t;
      HttpServer2 http = nn.getHttpServer();
      if (http == null) {
        LOG.error("Opass read plans are off: the NameNode has no web server");
        return;
      }
      Configuration conf = bt.getConf() != null ? bt.getConf() : nn.getConf();
      ReadPlanService s = new ReadPlanService(nn, conf);
      String refusal = authenticationProblem(conf, http.getWebAppContext());
      if (refusal != null) {
        LOG.error(refusal);
        http.setAttribute(ReadPlanServlet.REFUSAL_ATTRIBUTE, refusal);
      }
      http.setAttribute(ReadPlanServlet.SERVICE_ATTRIBUTE, s);
      http.addInternalServlet("opassReadPlan", PlanWire.PATH, ReadPlanServlet.class);
      keepBodies(http.getWebAppContext());
      registerMetrics(s);
      expiry = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread th = new Thread(r, "opass-read-plan-expiry");
        th.setDaemon(true);
        return th;
      });
      expiry.scheduleWithFixedDelay(() -> expire(s), 1, 1, TimeUnit.SECONDS);
      bt.setPlans(s.plans());
      topology = bt;
      service = s;
      LOG.info("Opass read plans at {} on the NameNode's web server", PlanWire.PATH);
    } catch (Exception | LinkageError e) {
      LOG.error("Opass read plans are off: the plugin failed to start; reads are balanced "
          + "online only", e);
    }
  }

  /** Maps {@link KeepBodyFilter} on {@link PlanWire#PATH}, ahead of every other filter. */
  private static void keepBodies(ServletContextHandler web) {
    try {
      ServletHandler handler = web.getServletHandler();
      FilterHolder holder = new FilterHolder(new KeepBodyFilter());
      holder.setName("opassReadPlanKeepBody");
      FilterMapping mapping = new FilterMapping();
      mapping.setFilterName(holder.getName());
      mapping.setPathSpec(PlanWire.PATH);
      handler.addFilter(holder);
      handler.prependFilterMapping(mapping);
    } catch (RuntimeException | LinkageError e) { // another Jetty: form bodies get a 415
      LOG.warn("Opass read plans take JSON bodies sent as Content-Type: application/json "
          + "only (curl -d bodies get a 415): could not map the body filter", e);
    }
  }

  /**
   * Why the endpoint must refuse every request, or null: with Kerberos on
   * ({@code hadoop.security.authentication}), an {@code AuthenticationFilter} of a type other
   * than {@code simple} must guard the endpoint, or {@code user.name} would be trusted.
   */
  static String authenticationProblem(Configuration conf, ServletContextHandler web) {
    if (SecurityUtil.getAuthenticationMethod(conf) == AuthenticationMethod.SIMPLE) {
      return null;
    }
    ServletHandler handler = web.getServletHandler();
    FilterMapping[] mappings = handler.getFilterMappings();
    for (FilterMapping m : mappings == null ? new FilterMapping[0] : mappings) {
      if (!covers(m.getPathSpecs())) {
        continue;
      }
      FilterHolder f = handler.getFilter(m.getFilterName());
      Class<?> c = f == null ? null : f.getHeldClass() != null ? f.getHeldClass()
          : conf.getClassByNameOrNull(f.getClassName());
      if (c != null && AuthenticationFilter.class.isAssignableFrom(c)
          && !PseudoAuthenticationHandler.TYPE.equals(f.getInitParameter("type"))) {
        return null;
      }
    }
    return "Opass read plans refuse every request (401): Kerberos is on but no authentication "
        + "filter guards " + PlanWire.PATH + " on the NameNode's web server, so callers could name "
        + "any user. Add org.apache.hadoop.security.AuthenticationFilterInitializer (or "
        + "ProxyUserAuthenticationFilterInitializer) to hadoop.http.filter.initializers with "
        + "hadoop.http.authentication.type=kerberos, and restart the NameNode.";
  }

  private static boolean covers(String[] specs) {
    if (specs == null) {
      return false;
    }
    for (String s : specs) {
      if ("/*".equals(s) || PlanWire.PATH.equals(s) || "/opass/*".equals(s)) {
        return true;
      }
    }
    return false;
  }

  private void registerMetrics(ReadPlanService s) {
    try {
      DefaultMetricsSystem.instance().register(ReadPlanMetrics.NAME,
          "Opass batch read plans", s.metrics());
      metricsRegistered = true;
    } catch (RuntimeException e) {
      LOG.warn("Opass read-plan metrics are not published", e); // plans work without them
    }
  }

  private static void expire(ReadPlanService s) {
    try {
      s.plans().expire();
    } catch (Throwable t) { // keep the schedule alive: expired plans stop serving anyway
      if (s.metrics().firstOf("expiry:" + t.getClass().getName())) {
        LOG.warn("Opass read plan expiry failed (logged once)", t);
      }
    }
  }

  /** The running service, or null when the plugin is off. */
  public ReadPlanService service() {
    return service;
  }

  /** The read-plan service running in {@code nameNode}, or null when the plugin is off. */
  public static ReadPlanService serviceOf(NameNode nameNode) {
    HttpServer2 http = nameNode.getHttpServer();
    return http == null ? null
        : (ReadPlanService) http.getAttribute(ReadPlanServlet.SERVICE_ATTRIBUTE);
  }

  @Override
  public void stop() {
    if (topology != null) {
      topology.setPlans(null);
    }
    if (expiry != null) {
      expiry.shutdownNow();
    }
    if (metricsRegistered) {
      try {
        DefaultMetricsSystem.instance().unregisterSource(ReadPlanMetrics.NAME);
      } catch (RuntimeException e) {
        LOG.debug("Could not unregister {}", ReadPlanMetrics.NAME, e);
      }
      metricsRegistered = false;
    }
  }

  @Override
  public void close() {
    stop();
  }
}
