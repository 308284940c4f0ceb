/**
 * The settings of a read, checked once and in one place, whatever the engine: the {@code
 * mrap.access.*} keys ({@link org.opass.mrap.settings.AccessSettings}: task size, joined reads,
 * records, restructured files) and the {@code mrap.science.*} keys ({@link
 * org.opass.mrap.settings.VariableSettings}: the kind, the variable, a slab, tiles or a selection
 * by value, decoding) as immutable values the planners take instead of a configuration, the
 * pattern keys ({@link org.opass.mrap.settings.MrapConf#pattern}), and the refusal naming a key
 * ({@link org.opass.mrap.settings.InvalidSettingsException}). Users set the keys.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.settings;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
