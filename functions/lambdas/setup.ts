import { type SetupDependencies, setupFromEnvironment } from '../composition/setup-dependencies';
import { organizationRoutes } from '../api/organizations/routes';
import { organizationUserRoutes } from '../api/organization-users/routes';
import { routedHandler } from '../api/pipeline/routed-handler';
import { setupRoutes } from '../api/setup/routes';
import { shippingLocationRoutes } from '../api/shipping-locations/routes';

/**
 * The setup Lambda serves setup and the partner's changes after it (the organization itself, its users and
 * shipping locations, docs/setup.md): one function with setup's grants, no cold start of its own.
 */
export const createSetupHandler = (getDependencies: () => Promise<SetupDependencies>) =>
  routedHandler('setup', {
    ...setupRoutes(getDependencies),
    ...organizationRoutes(getDependencies),
    ...organizationUserRoutes(getDependencies),
    ...shippingLocationRoutes(getDependencies),
  });

export const handler = createSetupHandler(setupFromEnvironment);
