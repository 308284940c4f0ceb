/**
 * The CF conventions, apart from any file format, as NetCDF-Java keeps time in {@code nc2.time}:
 * values decoded as CF says (scale and offset, fill and missing values, valid ranges, unsigned:
 * {@link org.opass.mrap.cf.CfDecoding}), times in their units and calendars ({@link
 * org.opass.mrap.cf.CfTime}, {@link org.opass.mrap.cf.CfCalendar}, {@link
 * org.opass.mrap.cf.CfDate}), a variable's coordinates ({@link org.opass.mrap.cf.Coordinates})
 * and selection by their values ({@link org.opass.mrap.cf.Selection}: {@code time=2020-06-01:
 * 2020-08-31, latitude=30:45} to index runs per file). {@link org.opass.mrap.cf.CfDate} and
 * {@link org.opass.mrap.cf.CfCalendar} are public API (what a record's coordinates may be).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.cf;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
