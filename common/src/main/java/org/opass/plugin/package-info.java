/**
 * What a NameNode plugin of ours falls back with when its own code fails: stock behaviour,
 * counted and logged once ({@link org.opass.plugin.FallbackLog}). Plain Java over SLF4J; in the
 * {@code opass-common} jar, which every Opass jar needs. Strict configuration reads are
 * {@code org.opass.conf}.
 */
package org.opass.plugin;
