package faultbed.schedulers;

public enum TaskState { PENDING, RUNNING, SUCCEEDED, FAILED, KILLED }
