/**
 * The {@code opass-client} jar's command line ({@code hadoop jar opass-client-*.jar COMMAND}):
 * client glue over the planner ({@code org.opass.read.plan}), the NameNode's read-plan
 * endpoint ({@code org.opass.read.client.ReadPlanClient}) and its heat table
 * ({@code org.opass.heatmap.cli.HeatTableCli}).
 */
package org.opass.read.cli;
