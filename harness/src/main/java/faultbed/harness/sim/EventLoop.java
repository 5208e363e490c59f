package faultbed.harness.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.hadoop.yarn.event.Dispatcher;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;

/**
 * Stands in for the AM's AsyncDispatcher and for every thread that sleeps in the real AM: one FIFO
 * event queue drained on the calling thread, plus timers ordered by (virtual time, insertion order).
 * One thread and a total order make a run a function of its inputs. Handlers are chosen by the event
 * type's declaring enum, as AsyncDispatcher does; unlike it, a handler's exception ends the run.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
final class EventLoop implements Dispatcher {
  private record Timer(long time, long order, Runnable action) { }

  private final VirtualClock clock;
  private final ArrayDeque<Event> events = new ArrayDeque<>();
  private final Map<Class<? extends Enum>, List<EventHandler>> handlers = new HashMap<>();
  private final List<Consumer<Event>> observers = new ArrayList<>();
  private final PriorityQueue<Timer> timers = new PriorityQueue<>((a, b) -> a.time != b.time
      ? Long.compare(a.time, b.time) : Long.compare(a.order, b.order));
  private final EventHandler<Event> enqueue = events::add;
  private long timerOrder;

  EventLoop(VirtualClock clock) {
    this.clock = clock;
  }

  @Override
  public EventHandler<Event> getEventHandler() {
    return enqueue;
  }

  @Override
  public void register(Class<? extends Enum> eventType, EventHandler handler) {
    handlers.computeIfAbsent(eventType, k -> new ArrayList<>()).add(handler);
  }

  /** Observers see each event just before its handlers do; the simulated cluster reads decisions so. */
  void observe(Consumer<Event> observer) {
    observers.add(observer);
  }

  long now() {
    return clock.getTime();
  }

  /** Runs the action at the given virtual time, or now if that time has passed. */
  void at(long time, Runnable action) {
    timers.add(new Timer(Math.max(time, clock.getTime()), timerOrder++, action));
  }

  void after(long delayMillis, Runnable action) {
    at(clock.getTime() + delayMillis, action);
  }

  /**
   * Dispatches queued events, then fires timers in order, until done holds, nothing is left to happen
   * or the limit passes; says which of the last two stopped it, or null.
   */
  String runUntil(BooleanSupplier done, long limitTime) {
    drain();
    while (!done.getAsBoolean()) {
      Timer next = timers.peek();
      if (next == null) {
        return "nothing was left to happen";
      }
      if (next.time > limitTime) {
        return "it was still running at the simulation's limit of virtual time";
      }
      timers.poll();
      clock.advanceTo(next.time);
      next.action.run();
      drain();
    }
    return null;
  }

  void drain() {
    Event event;
    while ((event = events.poll()) != null) {
      for (Consumer<Event> observer : observers) {
        observer.accept(event);
      }
      List<EventHandler> chosen = handlers.get(event.getType().getDeclaringClass());
      if (chosen == null) {
        throw new IllegalStateException("no handler for " + event.getType().getDeclaringClass());
      }
      for (EventHandler handler : chosen) {
        handler.handle(event);
      }
    }
  }
}
