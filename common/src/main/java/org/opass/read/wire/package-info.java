/**
 * The read-plan endpoint's wire format ({@link org.opass.read.wire.PlanWire}, one
 * {@link org.opass.read.wire.PlanRead}, a refusal
 * {@link org.opass.read.wire.PlanRefusedException}), shared by the NameNode side and the
 * client. Loaded by both JVMs.
 */
package org.opass.read.wire;
