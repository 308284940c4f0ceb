package org.opass.read.nn;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.util.ServicePlugin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Batch read planning on the NameNode ({@code dfs.namenode.plugins}): adds
 * {@code /opass/read-plan} ({@link ReadPlanServlet}) to the NameNode's web server and hands the
 * plans to {@link BalancingNetworkTopology}, which serves them. Needs
 * {@code dfs.net.topology.impl} set to that topology; without it the plugin logs why and stays
 * off. It never stops the NameNode from starting.
 */
public class ReadPlanPlugin implements ServicePlugin {
  private static final Logger LOG = LoggerFactory.getLogger(ReadPlanPlugin.class);
  static final String PATH = "/opass/read-plan";

  private volatile ReadPlanService service;
  private BalancingNetworkTopology topology;

  @Override
  public void start(Object running) {
    try {
      if (!(running instanceof NameNode nn)) {
        LOG.error("{} is a NameNode plugin (dfs.namenode.plugins); not started on {}",
            getClass().getName(), running);
        return;
      }
      NetworkTopology t = nn.getNamesystem().getBlockManager().getDatanodeManager()
          .getNetworkTopology();
      if (!(t instanceof BalancingNetworkTopology bt)) {
        LOG.error("Opass read plans are off: set dfs.net.topology.impl to {} (it is {})",
            BalancingNetworkTopology.class.getName(), t.getClass().getName());
        return;
      }
      HttpServer2 http = nn.getHttpServer();
      if (http == null) {
        LOG.error("Opass read plans are off: the NameNode has no web server");
        return;
      }
      Configuration conf = bt.getConf() != null ? bt.getConf() : nn.getConf();
      ReadPlanService s = new ReadPlanService(nn, conf);
      http.setAttribute(ReadPlanServlet.SERVICE_ATTRIBUTE, s);
      http.addInternalServlet("opassReadPlan", PATH, ReadPlanServlet.class, true);
      bt.setPlans(s.plans());
      topology = bt;
      service = s;
      LOG.info("Opass read plans at {} on the NameNode's web server", PATH);
    } catch (RuntimeException | LinkageError e) {
      LOG.error("Opass read plans are off: the plugin failed to start; reads are balanced "
          + "online only", e);
    }
  }

  /** The running service, or null when the plugin is off. */
  public ReadPlanService service() {
    return service;
  }

  @Override
  public void stop() {
    if (topology != null) {
      topology.setPlans(null);
    }
  }

  @Override
  public void close() {
    stop();
  }
}
