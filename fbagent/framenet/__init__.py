"""The FrameNet data model: what every lexicon reader returns and the store writes and reads.

- :mod:`.model`: the in-memory records of one lexicon (frames, frame elements, lexical units, exemplars,
  frame relations: :class:`~fbagent.framenet.model.LexiconData`);
- :mod:`.markup`: FrameNet definition markup to clean text, and exemplar target marks;
- :mod:`.lu_names`: lexical-unit names (``leave.v``) split into lemma and part of speech.

Pure: nothing here touches the database, the file system or a reader. The readers and the importer
(:mod:`fbagent.lexicon`) sit above the store; this room sits below it.
"""
