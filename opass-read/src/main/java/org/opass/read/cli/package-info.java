/**
 * The {@code opass-read} jar's command line ({@code hadoop jar opass-read-*.jar COMMAND}):
 * client glue over the planner ({@code org.opass.read.plan}) and the NameNode's read-plan
 * endpoint ({@code org.opass.read.client.ReadPlanClient}).
 */
package org.opass.read.cli;
