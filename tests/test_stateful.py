"""A stateful property test of the open document and its files (issue 14).

Hypothesis drives the real document model (rigplan.gui.files.document.BuildDocument with its QUndoStack, no window) and
the real file layer (files.tracked.TrackedFile, files.autosave.AutosaveStore on a temporary folder) through random
sequences of edit, undo, redo, save, save-as, a change of the file by another program, overwrite or reload after
that change, autosave and a simulated crash. After every step:
- every file on disk parses and equals the last state saved to it, by us or by the other program;
- its .bak holds the version saved before that (nothing lost);
- the document knows exactly when its file was changed behind its back, and saving then refuses to overwrite;
and after every crash, recovery returns the last autosaved state.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import shiboken6
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from rigplan.files import FileChangedError, load
from rigplan.files.autosave import AutosaveStore
from rigplan.files.tracked import TrackedFile
from rigplan.model import Build

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.rigplan"))


def make_machine(folder: Path) -> type[RuleBasedStateMachine]:
    from rigplan.gui.files.document import BuildDocument

    parts = [item.part for p in EXAMPLES for item in load(p).items]
    paths = [folder / "a.rigplan.yaml", folder / "b.rigplan.yaml"]
    autosave_dir = folder / "autosave"

    class DocumentMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            for p in folder.iterdir():
                if p.is_file():
                    p.unlink()
            for p in autosave_dir.glob("*") if autosave_dir.exists() else []:
                p.unlink()
            self.doc = BuildDocument()
            self.file = TrackedFile()
            self.store = AutosaveStore(autosave_dir)
            self.history: dict[Path, list[Build]] = {}  # every version written to each path, oldest first
            self.base: Build | None = None  # what this document last read from or wrote to its file
            self.autosaved: tuple[Build, Build | None, Path | None] | None = None  # build, its base, its path
            self.externals = 0

        def teardown(self) -> None:
            self.store.close()
            # Delete the Qt objects now, while the application exists: left to the garbage collector at exit,
            # the undo commands and their stack go in the wrong order and the interpreter crashes on the way out.
            self.doc.undo_stack.clear()
            shiboken6.delete(self.doc)

        # --- edits ------------------------------------------------------------------------------------------------

        @rule(name=st.text(alphabet="abcxyz ", min_size=1, max_size=8).filter(str.strip))
        def rename(self, name: str) -> None:
            self.doc.rename(name.strip())

        @rule(n=st.integers(0, len(parts) - 1))
        def add_part(self, n: int) -> None:
            self.doc.add_part(parts[n])

        @precondition(lambda self: self.doc.build.items)
        @rule(data=st.data())
        def remove_item(self, data: st.DataObject) -> None:
            self.doc.remove_item(data.draw(st.integers(0, len(self.doc.build.items) - 1)))

        @precondition(lambda self: self.doc.build.items)
        @rule(data=st.data(), quantity=st.integers(1, 64))
        def set_quantity(self, data: st.DataObject, quantity: int) -> None:
            self.doc.set_quantity(data.draw(st.integers(0, len(self.doc.build.items) - 1)), quantity)

        @rule(shipping=st.sampled_from([0.0, -0.0, 12.5, 99.0]))
        def set_shipping(self, shipping: float) -> None:
            a = self.doc.build.assumptions.model_copy(update={"shipping": shipping + 0.0})
            self.doc.set_assumptions(a)

        @rule()
        def undo(self) -> None:
            self.doc.undo_stack.undo()

        @rule()
        def redo(self) -> None:
            self.doc.undo_stack.redo()

        # --- files ------------------------------------------------------------------------------------------------

        def _wrote(self, path: Path, build: Build) -> None:
            self.history.setdefault(path, []).append(build)

        def _conflict(self) -> bool:
            path = self.file.path
            return path is not None and self.history.get(path, [None])[-1] != self.base

        @precondition(lambda self: self.file.path is not None)
        @rule()
        def save(self) -> None:
            path = self.file.path
            assert path is not None
            if self._conflict():
                with pytest.raises(FileChangedError):
                    self.file.save(self.doc.build)
                return  # nothing written: the invariants check the disk still holds the other program's version
            result = self.file.save(self.doc.build)
            assert result.backup_error is None
            self._wrote(path, self.doc.build)
            self.base = self.doc.build
            self.doc.mark_saved(path)

        @precondition(lambda self: self._conflict())
        @rule()
        def overwrite_after_conflict(self) -> None:
            path = self.file.path
            assert path is not None
            self.file.save(self.doc.build, overwrite=True)
            self._wrote(path, self.doc.build)
            self.base = self.doc.build
            self.doc.mark_saved(path)

        @precondition(lambda self: self.file.path is not None and self.file.path.exists())
        @rule()
        def reload(self) -> None:
            path = self.file.path
            assert path is not None
            build = self.file.reload()
            assert build == self.history[path][-1]
            self.doc.reset(build, path)
            self.base = build

        @rule(which=st.integers(0, len(paths) - 1))
        def save_as(self, which: int) -> None:
            path = paths[which]
            self.file.save_as(self.doc.build, path)
            self._wrote(path, self.doc.build)
            self.base = self.doc.build
            self.doc.mark_saved(path)

        @precondition(lambda self: self.file.path is not None)
        @rule()
        def another_program_writes(self) -> None:
            from rigplan.files import save

            path = self.file.path
            assert path is not None
            self.externals += 1
            other = self.doc.build.model_copy(update={"name": f"Written elsewhere {self.externals}"})
            save(other, path)
            self._wrote(path, other)
            assert self.file.changed_on_disk()

        # --- autosave and crashes ---------------------------------------------------------------------------------

        @rule()
        def autosave(self) -> None:
            self.store.save(self.doc.build, self.file.path, self.file.fingerprint)
            self.autosaved = (self.doc.build, self.base, self.file.path)

        @rule()
        def crash_and_restart(self) -> None:
            self.store.lock.release()  # what the OS does to the lock of a process that dies
            fresh = AutosaveStore(autosave_dir)
            found = fresh.orphans()
            if self.autosaved is None:
                assert found == []
                self.doc.reset(Build(), None)
                self.file.forget()
                self.base = None
            else:
                (entry,) = found
                recovered = AutosaveStore.try_load(entry)
                build, base, path = self.autosaved
                assert recovered == build  # recovery returns the last autosaved state
                assert entry.original == (str(path) if path else None)
                AutosaveStore.discard(entry)
                self.doc.reset(build, path)
                self.file.forget(path, entry.original_fingerprint)
                self.base = base
            self.store = fresh
            self.autosaved = None

        # --- after every step -------------------------------------------------------------------------------------

        @invariant()
        def disk_holds_the_last_saved_versions(self) -> None:
            for path, versions in self.history.items():
                assert load(path) == versions[-1]
                if len(versions) > 1:
                    assert load(path.with_name(path.name + ".bak")) == versions[-2]
            assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]

        @invariant()
        def document_knows_when_its_file_changed(self) -> None:
            if self.file.path is not None and self.file.fingerprint is not None:
                assert self.file.changed_on_disk() == self._conflict()

    return DocumentMachine


@pytest.mark.slow
def test_document_files_autosave_and_crashes(qapp: object, tmp_path: Path) -> None:
    machine = make_machine(tmp_path)
    run_state_machine_as_test(
        machine,
        settings=settings(
            derandomize=True,
            database=None,
            deadline=None,
            max_examples=60,
            stateful_step_count=30,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
