# Project-local Jupyter configuration: `make lab` starts JupyterLab with it (`--config`), so your global ~/.jupyter is
# never written. Before every save, nbdev cleans the notebook the way `nbdev_clean` does (settings.ini: outputs,
# execution counts and metadata removed, cell ids kept stable), so opening, running and saving a notebook leaves
# `git status` clean.
def trustnb_clean_before_save(path=None, model=None, **kwargs):
    from nbdev.clean import clean_jupyter
    clean_jupyter(path=path, model=model, **kwargs)

c.FileContentsManager.pre_save_hook = trustnb_clean_before_save  # noqa: F821 (`c` is Jupyter's config object)
c.ServerApp.root_dir = __import__('os').path.join(__import__('os').path.dirname(__file__), '..', 'nbs')  # noqa: F821
