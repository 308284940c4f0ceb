/**
 * NetCDF-3: classic, 64-bit offset and CDF-5 files ({@link
 * org.opass.mrap.format.netcdf3.Netcdf3Format}), whose header ({@link
 * org.opass.mrap.format.netcdf3.NetcdfHeader}) is read a page at a time from the front of the
 * file; every variable strided, record variables interleaved by record.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.format.netcdf3;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
