// `meltano install` reinstalls every plugin it is given, changed or not (Meltano 4: only its
// auto-install, before `meltano run`, skips a plugin whose venv fingerprint still matches its
// pip_url). The runner's install step wants exactly that check, so it runs this script with
// Meltano's own interpreter: Meltano's install service with its auto-install reason, Meltano's
// logging, and an exit status of 1 when any plugin failed. Written into Meltano's environment when
// it is provisioned (provision.ts), as `runner-bin/meltano-install-changed`.

export const INSTALL_CHANGED_COMMAND = 'meltano-install-changed';

export const INSTALL_CHANGED_PY = `"""meltano install of the named plugins, reinstalling only those whose requirements changed."""

import asyncio
import sys

from meltano.core.logging import setup_logging
from meltano.core.plugin_install_service import PluginInstallReason, install_plugins
from meltano.core.project import Project


def main(names):
    project = Project.find()
    setup_logging(project)
    plugins = [project.plugins.find_plugin(name) for name in names]
    ok = asyncio.run(install_plugins(project, plugins, reason=PluginInstallReason.AUTO))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
`;
