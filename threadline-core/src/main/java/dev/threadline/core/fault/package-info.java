/**
 * Fault injection for tests of Threadline and of what runs on it: {@link dev.threadline.core.fault.CrashPoint},
 * the named points of the step path where a JVM in crash-test mode halts. Off unless a system property
 * arms a point.
 */
package dev.threadline.core.fault;
