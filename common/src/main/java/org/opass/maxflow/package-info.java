/**
 * Max flow on int arrays ({@link org.opass.maxflow.IntMaxFlow}), shared by the planner
 * ({@code org.opass.read.plan}) and the NameNode's replica balancer
 * ({@code org.opass.read.balance}). Pure Java, no Hadoop types.
 */
package org.opass.maxflow;
