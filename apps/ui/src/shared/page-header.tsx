/** A screen's main action, as a primary button on the right of its title. */
export interface PageAction {
  label: string;
  testId: string;
  onClick(): void;
  disabled?: boolean;
}

/**
 * A screen's title, what the screen is for and its main action; below them, why the screen's
 * data could not be loaded, when that failed.
 */
export function PageHeader({
  title,
  subtitle,
  action,
  error,
}: {
  title: string;
  subtitle?: string;
  action?: PageAction;
  error?: string | null;
}) {
  return (
    <>
      <header className="view-header">
        <div>
          <h1>{title}</h1>
          {subtitle ? <p className="muted view-subtitle">{subtitle}</p> : null}
        </div>
        {action ? (
          <button
            type="button"
            className="primary"
            data-testid={action.testId}
            disabled={action.disabled}
            onClick={action.onClick}
          >
            {action.label}
          </button>
        ) : null}
      </header>
      {error ? (
        <div className="banner error" role="alert">
          {error}
        </div>
      ) : null}
    </>
  );
}
