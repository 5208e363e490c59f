package faultbed.schedulers;

public enum TaskType { MAP, REDUCE }
