import { Button } from '../../../components/ui/index.ts';
import { MAINTENANCE_MESSAGES } from '../messages.ts';
import { useMaintenanceSwitch } from '../useMaintenance.ts';

/** Admin only: switches maintenance mode on or off. */
export function MaintenanceToggle({ on, size = 'sm' }: { on: boolean; size?: 'sm' | 'md' }) {
  const toggle = useMaintenanceSwitch();
  return (
    <div className="flex flex-col items-start gap-1">
      <Button
        variant={on ? 'danger' : 'secondary'}
        size={size}
        disabled={toggle.isPending}
        onClick={() => toggle.mutate(on)}
      >
        {on ? MAINTENANCE_MESSAGES.turnOn : MAINTENANCE_MESSAGES.turnOff}
      </Button>
      {toggle.isError ? (
        <span role="alert" className="text-xs text-red-400">
          {toggle.error.message}
        </span>
      ) : null}
    </div>
  );
}
