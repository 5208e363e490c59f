package faultbed.schedulers;

/** Phases an attempt reports, in Hadoop's order; a map goes MAP then SORT, a reduce SHUFFLE, SORT, REDUCE. */
public enum Phase { STARTING, MAP, SHUFFLE, SORT, REDUCE, CLEANUP }
